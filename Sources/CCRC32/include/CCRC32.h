#ifndef WALLET_ORDERS_CCRC32_H
#define WALLET_ORDERS_CCRC32_H

// CRC-32 (the zip polynomial, bit-reflected) folded with carry-less multiplication (PCLMULQDQ),
// after Intel's "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction"; with
// AVX-512 and VPCLMULQDQ, inputs of 256 bytes or more fold four lanes per instruction first.
// zlib 1.2.13, as Debian ships it, computes CRC-32 a word at a time: about a tenth of an order
// verification. Only the fold is here; Swift's `CRC32` calls zlib for short inputs and tails.

#include <stddef.h>
#include <stdint.h>

/// Whether this processor has PCLMULQDQ and SSE4.1 (and this is an x86-64 build).
int wo_crc32_fold_available(void);

/// Folds `length` bytes (a multiple of 16, at least 64) into `crc`, given and returned
/// pre-conditioned (bitwise NOT of zlib's value). Call only when `wo_crc32_fold_available()`.
uint32_t wo_crc32_fold(const unsigned char *bytes, size_t length, uint32_t crc);

#endif
