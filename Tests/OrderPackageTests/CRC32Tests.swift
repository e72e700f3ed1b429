import CZlib
import Foundation
import TestArchiveTable
import Testing

@testable import OrderPackage

@Suite("CRC-32 folded with carry-less multiplication gives zlib's value")
struct CRC32Tests {
    static func zlib(_ crc: UInt32, _ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: crc32_z(UInt(crc), $0.baseAddress, z_size_t($0.count))) }
    }

    static func folded(_ crc: UInt32, _ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { CRC32.update(crc, $0) }
    }

    @Test("every length to 1,100 bytes, at every alignment to 16, from several starting values")
    func lengths() {
        var generator = SplitMix64(state: 44)
        let bytes = (0..<1_200).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for start in [UInt32(0), 0xFFFF_FFFF, 0x1234_5678] {
            for offset in 0..<16 {
                for length in 0...(1_100 - offset) where length < 200 || length % 7 == 0 {
                    let slice = bytes[offset..<offset + length]
                    #expect(Self.folded(start, slice) == Self.zlib(start, Array(slice)), "offset \(offset), length \(length)")
                }
            }
        }
    }

    @Test("a large buffer, whole and in chained pieces of odd sizes; all zeros and all ones")
    func large() {
        var generator = SplitMix64(state: 4_400)
        let bytes = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let expected = Self.zlib(0, bytes)
        #expect(Self.folded(0, bytes[...]) == expected)
        var crc: UInt32 = 0
        var position = 0
        for size in [1, 63, 64, 65, 1_000, 32_768, 99_999] where position < bytes.count {
            let end = min(bytes.count, position + size)
            crc = Self.folded(crc, bytes[position..<end])
            position = end
        }
        crc = Self.folded(crc, bytes[position...])
        #expect(crc == expected)
        for fill in [UInt8(0), 0xFF] {
            let uniform = [UInt8](repeating: fill, count: 4_099)
            #expect(Self.folded(0, uniform[...]) == Self.zlib(0, uniform))
        }
    }
}
