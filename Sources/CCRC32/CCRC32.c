#include "CCRC32.h"

#if defined(__x86_64__)
#include <immintrin.h>

int wo_crc32_fold_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
}

// AVX-512 with VPCLMULQDQ: four carry-less products per instruction. Checked once; the answer is
// the same on every thread, so a race only repeats the check.
static int wo_crc32_wide_available(void) {
    static int cached = -1;
    int value = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (value < 0) {
        __builtin_cpu_init();
        value = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                __builtin_cpu_supports("vpclmulqdq");
        __atomic_store_n(&cached, value, __ATOMIC_RELAXED);
    }
    return value;
}

// One fold of each 128-bit lane of `x` over the distance the constants `k` stand for, onto `data`.
__attribute__((target("avx512f,avx512vl,vpclmulqdq")))
static inline __m512i wo_fold512(__m512i x, __m512i k, __m512i data) {
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00), _mm512_clmulepi64_epi128(x, k, 0x11), data, 0x96);
}

// The first part of the fold, 256 bytes at a time in four 512-bit registers (each lane folded
// 2048 bits ahead: x^(2048+32) and x^(2048-32) mod P), then the four into one (512 bits: the
// four-block constants below) and 64 bytes at a time, leaving fewer than 64 bytes. The four
// 128-bit lanes of what is left go to `lanes`, as the four blocks of the narrow loop; returns how
// many bytes it consumed. `length` is at least 256.
__attribute__((target("avx512f,avx512vl,vpclmulqdq")))
static size_t wo_crc32_fold_wide(const unsigned char *bytes, size_t length, uint32_t crc, __m128i *lanes) {
    const __m512i k2048 = _mm512_broadcast_i32x4(_mm_set_epi64x(0x01322d1430, 0x011542778a));
    const __m512i k512 = _mm512_broadcast_i32x4(_mm_set_epi64x(0x01c6e41596, 0x0154442bd4));
    const unsigned char *start = bytes;
    __m512i z0 = _mm512_loadu_si512((const void *)(bytes + 0x00));
    __m512i z1 = _mm512_loadu_si512((const void *)(bytes + 0x40));
    __m512i z2 = _mm512_loadu_si512((const void *)(bytes + 0x80));
    __m512i z3 = _mm512_loadu_si512((const void *)(bytes + 0xC0));
    z0 = _mm512_xor_si512(z0, _mm512_inserti32x4(_mm512_setzero_si512(), _mm_cvtsi32_si128((int)crc), 0));
    bytes += 256;
    length -= 256;
    while (length >= 256) {
        z0 = wo_fold512(z0, k2048, _mm512_loadu_si512((const void *)(bytes + 0x00)));
        z1 = wo_fold512(z1, k2048, _mm512_loadu_si512((const void *)(bytes + 0x40)));
        z2 = wo_fold512(z2, k2048, _mm512_loadu_si512((const void *)(bytes + 0x80)));
        z3 = wo_fold512(z3, k2048, _mm512_loadu_si512((const void *)(bytes + 0xC0)));
        bytes += 256;
        length -= 256;
    }
    z0 = wo_fold512(z0, k512, z1);
    z0 = wo_fold512(z0, k512, z2);
    z0 = wo_fold512(z0, k512, z3);
    while (length >= 64) {
        z0 = wo_fold512(z0, k512, _mm512_loadu_si512((const void *)bytes));
        bytes += 64;
        length -= 64;
    }
    _mm_storeu_si128(lanes + 0, _mm512_extracti32x4_epi32(z0, 0));
    _mm_storeu_si128(lanes + 1, _mm512_extracti32x4_epi32(z0, 1));
    _mm_storeu_si128(lanes + 2, _mm512_extracti32x4_epi32(z0, 2));
    _mm_storeu_si128(lanes + 3, _mm512_extracti32x4_epi32(z0, 3));
    return (size_t)(bytes - start);
}

// The bit-reflected constants of the paper for the polynomial 0x04C11DB7: x^(4*128+32) and
// x^(4*128-32) mod P (folding four blocks), x^(128+32) and x^(128-32) (one block), x^64 (128 to
// 64 bits), and P and floor(x^64 / P) for the Barrett reduction.
__attribute__((target("pclmul,sse4.1")))
uint32_t wo_crc32_fold(const unsigned char *bytes, size_t length, uint32_t crc) {
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5k0 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);

    __m128i x1, x2, x3, x4;
    if (length >= 256 && wo_crc32_wide_available()) {
        __m128i lanes[4];
        size_t consumed = wo_crc32_fold_wide(bytes, length, crc, lanes);
        bytes += consumed;
        length -= consumed;
        x1 = _mm_loadu_si128(lanes + 0);
        x2 = _mm_loadu_si128(lanes + 1);
        x3 = _mm_loadu_si128(lanes + 2);
        x4 = _mm_loadu_si128(lanes + 3);
    } else {
        x1 = _mm_loadu_si128((const __m128i *)(bytes + 0x00));
        x2 = _mm_loadu_si128((const __m128i *)(bytes + 0x10));
        x3 = _mm_loadu_si128((const __m128i *)(bytes + 0x20));
        x4 = _mm_loadu_si128((const __m128i *)(bytes + 0x30));
        x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
        bytes += 64;
        length -= 64;
    }

    // Four blocks of 16 at a time.
    while (length >= 64) {
        __m128i x5 = _mm_clmulepi64_si128(x1, k1k2, 0x00);
        __m128i x6 = _mm_clmulepi64_si128(x2, k1k2, 0x00);
        __m128i x7 = _mm_clmulepi64_si128(x3, k1k2, 0x00);
        __m128i x8 = _mm_clmulepi64_si128(x4, k1k2, 0x00);
        x1 = _mm_clmulepi64_si128(x1, k1k2, 0x11);
        x2 = _mm_clmulepi64_si128(x2, k1k2, 0x11);
        x3 = _mm_clmulepi64_si128(x3, k1k2, 0x11);
        x4 = _mm_clmulepi64_si128(x4, k1k2, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), _mm_loadu_si128((const __m128i *)(bytes + 0x00)));
        x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), _mm_loadu_si128((const __m128i *)(bytes + 0x10)));
        x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), _mm_loadu_si128((const __m128i *)(bytes + 0x20)));
        x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), _mm_loadu_si128((const __m128i *)(bytes + 0x30)));
        bytes += 64;
        length -= 64;
    }

    // The four into one.
    __m128i x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x2), x5);
    x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x3), x5);
    x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x4), x5);

    // One block of 16 at a time.
    while (length >= 16) {
        x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
        x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, _mm_loadu_si128((const __m128i *)bytes)), x5);
        bytes += 16;
        length -= 16;
    }

    // 128 bits to 64.
    const __m128i mask32 = _mm_setr_epi32(~0, 0, ~0, 0);
    x2 = _mm_clmulepi64_si128(x1, k3k4, 0x10);
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
    x2 = _mm_srli_si128(x1, 4);
    x1 = _mm_and_si128(x1, mask32);
    x1 = _mm_xor_si128(_mm_clmulepi64_si128(x1, k5k0, 0x00), x2);

    // Barrett reduction to 32 bits.
    x2 = _mm_and_si128(x1, mask32);
    x2 = _mm_clmulepi64_si128(x2, poly, 0x10);
    x2 = _mm_and_si128(x2, mask32);
    x2 = _mm_clmulepi64_si128(x2, poly, 0x00);
    x1 = _mm_xor_si128(x1, x2);
    return (uint32_t)_mm_extract_epi32(x1, 1);
}

#else

int wo_crc32_fold_available(void) { return 0; }

uint32_t wo_crc32_fold(const unsigned char *bytes, size_t length, uint32_t crc) {
    (void)bytes;
    (void)length;
    return crc;
}

#endif
