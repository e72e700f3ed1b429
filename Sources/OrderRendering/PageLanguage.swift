/// The languages the pages' own words are written in — those of Apple's Wallet that this
/// project ships: English, German, French, Spanish, Japanese, Simplified Chinese. A reader's
/// languages (BCP 47 tags or POSIX names, most preferred first) choose one; English when none
/// matches.
public enum PageLanguage: String, Sendable, Hashable, CaseIterable {
    case english = "en"
    case german = "de"
    case french = "fr"
    case spanish = "es"
    case japanese = "ja"
    case simplifiedChinese = "zh-Hans"

    /// The first of `languages` this project has words for: by primary language, Chinese only
    /// when written in simplified characters (`zh`, `zh-CN`, `zh-SG`, `zh-Hans…`; not `zh-TW`,
    /// `zh-HK`, `zh-MO` or `zh-Hant…`).
    public static func choose(from languages: [String]) -> PageLanguage {
        for tag in languages {
            let parts = tag.replacingOccurrences(of: "_", with: "-").lowercased().split(separator: "-").map(String.init)
            guard let primary = parts.first else { continue }
            if primary == "zh" {
                let traditional =
                    !parts.contains("hans") && parts.dropFirst().contains { ["hant", "tw", "hk", "mo"].contains($0) }
                if !traditional { return .simplifiedChinese }
                continue
            }
            if let language = PageLanguage(rawValue: primary), language != .simplifiedChinese { return language }
        }
        return .english
    }
}
