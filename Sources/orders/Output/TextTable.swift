import WalletPrimitives

/// A table for people: a header row, then one row per item, columns two spaces apart and padded
/// to the widest cell (numbers aligned right), the last column unpadded.
///
/// ```
/// UPDATED               STATUS     ORDER                             MERCHANT
/// 2026-11-02T10:00:00Z  open       order.com.example.shop/ORDER-1    Example Shop
/// ```
///
/// Cells are one line each: control characters (a newline in a merchant's name) are written as
/// `\u{A}` in tables, on terminals and in pipes alike, so a row is always one line. Width counts
/// East Asian wide characters and emoji as two columns. Scripts should use `--json`, which is
/// exact; an empty table prints nothing, not even its header.
struct TextTable {
    enum Alignment {
        case left, right
    }

    struct Column {
        var header: String
        var alignment: Alignment = .left
    }

    let columns: [Column]
    private(set) var rows: [[String]] = []

    init(_ columns: [Column]) {
        self.columns = columns
    }

    /// Left-aligned columns with these headers.
    init(_ headers: String...) {
        self.init(headers.map { Column(header: $0) })
    }

    mutating func append(_ cells: [String]) {
        rows.append(cells.map(Self.oneLine))
    }

    /// `cell` with control characters escaped; most cells have none and are kept as they are.
    private static func oneLine(_ cell: String) -> String {
        // 0xC2 leads U+0080…U+00BF, the C1 controls among them: those cells take the exact path.
        let plain = cell.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { (byte: UInt8) -> Bool in byte >= 0x20 && byte != 0x7F && byte != 0xC2 }
        }
        return plain == true ? cell : MessageText.escapingControlCharacters(cell)
    }

    var isEmpty: Bool { rows.isEmpty }

    /// The header and the rows, one line each, without a final newline.
    var text: String {
        guard !rows.isEmpty else { return "" }
        let all = [columns.map(\.header)] + rows
        let widths = columns.indices.map { column in all.map { Self.width(column < $0.count ? $0[column] : "") }.max() ?? 0 }
        return all.map { cells in
            columns.indices.map { column -> String in
                let cell = column < cells.count ? cells[column] : ""
                let padding = String(repeating: " ", count: widths[column] - Self.width(cell))
                if column == columns.count - 1 {
                    return columns[column].alignment == .right ? padding + cell : cell
                }
                return columns[column].alignment == .right ? padding + cell : cell + padding
            }
            .joined(separator: "  ")
        }
        .joined(separator: "\n")
    }

    /// Prints the table (nothing when it has no rows).
    func print() {
        guard !rows.isEmpty else { return }
        Output.line(text)
    }

    /// Terminal columns taken by `text`.
    static func width(_ text: String) -> Int {
        if let ascii = text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy { $0 < 0x80 } }), ascii {
            return text.utf8.count
        }
        return text.reduce(0) { total, character in
            guard let scalar = character.unicodeScalars.first else { return total }
            return total + (isWide(scalar.value) ? 2 : 1)
        }
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            true
        default: false
        }
    }
}
