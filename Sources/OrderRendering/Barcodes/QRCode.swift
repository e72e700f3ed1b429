/// A QR Code symbol (ISO/IEC 18004) for a barcode's message: byte mode, error correction level M,
/// the smallest version (1–40) that holds it, and the mask with the lowest penalty score — what a
/// scanner at a pickup counter reads.
///
/// `modules[y][x]` is true for a dark module. The quiet zone is not included.
struct QRCode: Sendable, Equatable {
    /// Error correction levels, with the two bits the format information writes for each.
    enum Level: Int, Sendable, CaseIterable {
        case low = 1, medium = 0, quartile = 3, high = 2

        /// The index of the level in ``QRTables``' rows.
        var tableRow: Int {
            switch self {
            case .low: 0
            case .medium: 1
            case .quartile: 2
            case .high: 3
            }
        }
    }

    let version: Int
    let level: Level
    let mask: Int
    private(set) var modules: [[Bool]]

    var size: Int { version * 4 + 17 }

    /// Encodes `bytes` in byte mode, or nil when they do not fit in version 40 at `level`.
    /// `mask` forces a mask pattern (0–7); by default the one with the lowest penalty is chosen.
    init?(bytes: [UInt8], level: Level = .medium, mask forcedMask: Int? = nil) {
        guard let version = (1...40).first(where: { bytes.count <= Self.byteCapacity(version: $0, level: level) }) else {
            return nil
        }
        var symbol = QRSymbolBuilder(version: version, level: level)
        symbol.drawFunctionPatterns()
        symbol.drawCodewords(
            QRCodewords.interleaved(Self.dataCodewords(bytes, version: version, level: level), version: version, level: level))
        let mask =
            forcedMask
            ?? (0..<8).min { first, second in
                symbol.masked(first).penalty < symbol.masked(second).penalty
            } ?? 0
        let final = symbol.masked(mask)
        self.version = version
        self.level = level
        self.mask = mask
        self.modules = final.modules
    }

    /// How many bytes a version holds at a level in byte mode (the mode indicator and the
    /// character count take 12 bits up to version 9, 20 from version 10).
    static func byteCapacity(version: Int, level: Level) -> Int {
        let bits = QRCodewords.dataCodewordCount(version: version, level: level) * 8 - 4 - countBits(version: version)
        return bits / 8
    }

    static func countBits(version: Int) -> Int { version <= 9 ? 8 : 16 }

    /// The data codewords: mode, count, the bytes, the terminator, then the pad bytes.
    private static func dataCodewords(_ bytes: [UInt8], version: Int, level: Level) -> [UInt8] {
        let capacity = QRCodewords.dataCodewordCount(version: version, level: level)
        var bits = QRBitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: countBits(version: version))
        for byte in bytes { bits.append(Int(byte), count: 8) }
        bits.append(0, count: min(4, capacity * 8 - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        var pad: UInt8 = 0xEC
        while codewords.count < capacity {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }
}

/// Bits appended most significant first.
struct QRBitBuffer {
    private(set) var bits: [Bool] = []
    var count: Int { bits.count }

    mutating func append(_ value: Int, count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
    }

    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<min(start + 8, bits.count)].enumerated().reduce(UInt8(0)) { byte, bit in
                bit.element ? byte | UInt8(0x80 >> bit.offset) : byte
            }
        }
    }
}
