/// Numbered placeholders (`$1`, `$2`, …) for statements whose length depends on their values:
/// `IN` lists and multi-row `VALUES`.
package enum SQLPlaceholders {
    /// `$first, …, $last`.
    package static func list(_ positions: ClosedRange<Int>) -> String {
        positions.map { "$\($0)" }.joined(separator: ", ")
    }

    /// `count` values from `$first` on.
    package static func list(from first: Int, count: Int) -> String {
        count > 0 ? list(first...(first + count - 1)) : ""
    }

    /// `($1, …, $width), ($width+1, …), …` for `rows` rows of `width` values, from `$first` on.
    package static func rows(_ rows: Int, width: Int, from first: Int = 1) -> String {
        (0..<rows).map { "(" + list(from: first + $0 * width, count: width) + ")" }.joined(separator: ", ")
    }
}
