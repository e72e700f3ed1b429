/// A Code 128 symbol (ISO/IEC 15417) for a barcode's message: code set C for an even run of
/// digits alone, code set B for printable ASCII otherwise, the modulo-103 check symbol, the
/// stop pattern. Messages with other characters (control characters, non-ASCII) are not
/// encoded: the page shows their text instead.
struct Code128: Sendable, Equatable {
    /// Widths of the elements, bar first, alternating bar and space, in modules.
    let widths: [Int]

    init?(_ message: String) {
        let bytes = Array(message.utf8)
        guard !bytes.isEmpty else { return nil }
        var values: [Int]
        if bytes.count % 2 == 0 && bytes.allSatisfy({ (0x30...0x39).contains($0) }) {
            values = [105]
            for pair in stride(from: 0, to: bytes.count, by: 2) {
                values.append(Int(bytes[pair] - 0x30) * 10 + Int(bytes[pair + 1] - 0x30))
            }
        } else {
            guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
            values = [104] + bytes.map { Int($0) - 0x20 }
        }
        let check = values.enumerated().reduce(values[0]) { sum, item in sum + item.offset * item.element } % 103
        values += [check, 106]
        widths = values.flatMap { Self.patterns[$0].utf8.map { Int($0 - 0x30) } }
    }

    /// The width of the symbol without its quiet zones, in modules.
    var moduleCount: Int { widths.reduce(0, +) }

    /// Each value's elements (ISO/IEC 15417 table 1); 103–105 start A, B and C; 106 stop.
    static let patterns: [String] = [
        "212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312", "132212", "221213",
        "221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211", "221132",
        "221231", "213212", "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",
        "212123", "212321", "232121", "111323", "131123", "131321", "112313", "132113", "132311", "211313",
        "231113", "231311", "112133", "112331", "132131", "113123", "113321", "133121", "313121", "211331",
        "231131", "213113", "213311", "213131", "311123", "311321", "331121", "312113", "312311", "332111",
        "314111", "221411", "431111", "111224", "111422", "121124", "121421", "141122", "141221", "112214",
        "112412", "122114", "122411", "142112", "142211", "241211", "221114", "413111", "241112", "134111",
        "111242", "121142", "121241", "114212", "124112", "124211", "411212", "421112", "421211", "212141",
        "214121", "412121", "111143", "111341", "131141", "114113", "114311", "411113", "411311", "113141",
        "114131", "311141", "411131", "211412", "211214", "211232", "2331112",
    ]
}
