/// The module grid of one QR Code symbol while it is drawn: function patterns (finders, timing,
/// alignment, format and version information), the codewords in their zigzag, then a mask and
/// its penalty (ISO/IEC 18004 §7.8).
struct QRSymbolBuilder {
    let version: Int
    let level: QRCode.Level
    let size: Int
    private(set) var modules: [[Bool]]
    /// Modules of the function patterns, which masks leave alone.
    private var isFunction: [[Bool]]

    init(version: Int, level: QRCode.Level) {
        self.version = version
        self.level = level
        size = version * 4 + 17
        modules = Array(repeating: Array(repeating: false, count: size), count: size)
        isFunction = modules
    }

    private mutating func set(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y][x] = dark
        isFunction[y][x] = true
    }

    mutating func drawFunctionPatterns() {
        for index in 0..<size {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    set(x + dx, y + dy, distance != 2 && distance != 4)
                }
            }
        }
        let positions = alignmentPositions
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                let last = positions.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormatBits(mask: 0)
        drawVersion()
    }

    /// The centres of alignment patterns, on both axes.
    var alignmentPositions: [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var result = [6]
        var position = size - 7
        var rest: [Int] = []
        for _ in 1..<count {
            rest.insert(position, at: 0)
            position -= step
        }
        result += rest
        return result
    }

    /// The level and mask, with their BCH(15, 5) check bits, in both copies; and the dark module.
    mutating func drawFormatBits(mask: Int) {
        let data = level.rawValue << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { set(8, index, bit(index)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for index in 9..<15 { set(14 - index, 8, bit(index)) }
        for index in 0..<8 { set(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { set(8, size - 15 + index, bit(index)) }
        set(8, size - 8, true)
    }

    /// From version 7: the version with its Golay(18, 6) check bits, in both corners.
    private mutating func drawVersion() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            let a = size - 11 + index % 3
            let b = index / 3
            set(a, b, dark)
            set(b, a, dark)
        }
    }

    /// The codewords' bits in two-module columns, right to left, alternately upwards and
    /// downwards, skipping function modules and the vertical timing pattern's column.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var index = 0
        let total = codewords.count * 8
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for offset in 0..<2 {
                    let x = right - offset
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    if !isFunction[y][x] && index < total {
                        modules[y][x] = (codewords[index >> 3] >> (7 - (index & 7))) & 1 == 1
                        index += 1
                    }
                }
            }
            right -= 2
        }
    }

    /// This symbol with mask pattern `mask` applied and its format information written.
    func masked(_ mask: Int) -> QRSymbolBuilder {
        var copy = self
        for y in 0..<size {
            for x in 0..<size where !isFunction[y][x] {
                let invert: Bool
                switch mask {
                case 0: invert = (x + y) % 2 == 0
                case 1: invert = y % 2 == 0
                case 2: invert = x % 3 == 0
                case 3: invert = (x + y) % 3 == 0
                case 4: invert = (x / 3 + y / 2) % 2 == 0
                case 5: invert = x * y % 2 + x * y % 3 == 0
                case 6: invert = (x * y % 2 + x * y % 3) % 2 == 0
                default: invert = ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if invert { copy.modules[y][x].toggle() }
            }
        }
        copy.drawFormatBits(mask: mask)
        return copy
    }

    /// The penalty score of §7.8.3: runs of five or more, 2 × 2 blocks, finder-like patterns
    /// (1:1:3:1:1 with four light modules on a side, outside the symbol counting as light), and
    /// the distance of the dark share from half.
    var penalty: Int { Self.penalty(of: modules) }

    static func penalty(of modules: [[Bool]]) -> Int {
        let size = modules.count
        let grid = modules.flatMap { $0 }
        var score = 0
        for across in [true, false] {
            for line in 0..<size {
                var run = 0
                var previous = false
                // The last 11 modules as bits, four light modules outside the symbol on each side.
                var window = 0
                for index in 0..<(size + 8) {
                    let position = index - 4
                    let inside = position >= 0 && position < size
                    let dark = inside && grid[across ? line * size + position : position * size + line]
                    if inside {
                        if position > 0 && dark == previous {
                            run += 1
                        } else {
                            if run >= 5 { score += run - 2 }
                            run = 1
                        }
                        previous = dark
                    }
                    window = (window << 1 | (dark ? 1 : 0)) & 0x7FF
                    if index >= 10 && (window == 0b101_1101_0000 || window == 0b000_0101_1101) { score += 40 }
                }
                if run >= 5 { score += run - 2 }
            }
        }
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let color = grid[y * size + x]
                if grid[y * size + x + 1] == color && grid[(y + 1) * size + x] == color && grid[(y + 1) * size + x + 1] == color {
                    score += 3
                }
            }
        }
        let dark = grid.reduce(0) { $0 + ($1 ? 1 : 0) }
        let total = size * size
        score += ((abs(dark * 20 - total * 10) + total - 1) / total - 1) * 10
        return score
    }

}
