/// QR Code's codeword arithmetic: how many codewords each version has, how they split into
/// Reed–Solomon blocks at each level (ISO/IEC 18004 table 9), the error-correction codewords
/// over GF(2⁸) with the polynomial 0x11D, and the interleaving of the blocks.
enum QRCodewords {
    /// Error-correction codewords per block, by level (L, M, Q, H) and version (index 0 unused).
    private static let eccPerBlock: [[Int]] = [
        [
            0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30,
            30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28,
            28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        ],
        [
            0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30,
            30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30,
            30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
    ]

    /// Reed–Solomon blocks, by level and version.
    private static let blocks: [[Int]] = [
        [
            0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19,
            19, 20, 21, 22, 24, 25,
        ],
        [
            0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33,
            35, 37, 38, 40, 43, 45, 47, 49,
        ],
        [
            0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43,
            45, 48, 51, 53, 56, 59, 62, 65, 68,
        ],
        [
            0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51,
            54, 57, 60, 63, 66, 70, 74, 77, 81,
        ],
    ]

    /// Modules left for codewords once every function pattern is drawn.
    static func rawDataModules(version: Int) -> Int {
        var modules = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignments = version / 7 + 2
            modules -= (25 * alignments - 10) * alignments - 55
            if version >= 7 { modules -= 36 }
        }
        return modules
    }

    static func dataCodewordCount(version: Int, level: QRCode.Level) -> Int {
        rawDataModules(version: version) / 8 - eccPerBlock[level.tableRow][version] * blocks[level.tableRow][version]
    }

    /// The data split into blocks, each followed by its error-correction codewords, then the
    /// blocks' codewords taken in turn (data first, then error correction).
    static func interleaved(_ data: [UInt8], version: Int, level: QRCode.Level) -> [UInt8] {
        let blockCount = blocks[level.tableRow][version]
        let eccLength = eccPerBlock[level.tableRow][version]
        let raw = rawDataModules(version: version) / 8
        let shortBlocks = blockCount - raw % blockCount
        let shortLength = raw / blockCount
        let divisor = generator(degree: eccLength)
        var dataBlocks: [[UInt8]] = []
        var eccBlocks: [[UInt8]] = []
        var start = 0
        for index in 0..<blockCount {
            let length = shortLength - eccLength + (index < shortBlocks ? 0 : 1)
            let block = Array(data[start..<start + length])
            start += length
            dataBlocks.append(block)
            eccBlocks.append(remainder(of: block, divisor: divisor))
        }
        var result: [UInt8] = []
        result.reserveCapacity(raw)
        for position in 0..<(shortLength - eccLength + 1) {
            for block in dataBlocks where position < block.count { result.append(block[position]) }
        }
        for position in 0..<eccLength {
            for block in eccBlocks { result.append(block[position]) }
        }
        return result
    }

    /// The generator polynomial's coefficients (highest first, the leading 1 left out) for
    /// `degree` error-correction codewords: the product of (x − αⁱ) for i in 0..<degree.
    static func generator(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                result[index] = multiply(result[index], root)
                if index + 1 < degree { result[index] ^= result[index + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    /// The remainder of `data` · x^degree divided by the generator.
    static func remainder(of data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices { result[index] ^= multiply(divisor[index], factor) }
        }
        return result
    }

    /// Multiplication in GF(2⁸) modulo x⁸ + x⁴ + x³ + x² + 1.
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var product = 0
        for bit in stride(from: 7, through: 0, by: -1) {
            product = (product << 1) ^ ((product >> 7) * 0x11D)
            product ^= ((Int(y) >> bit) & 1) * Int(x)
        }
        return UInt8(product)
    }
}
