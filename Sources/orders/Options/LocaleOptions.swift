import ArgumentParser
import Foundation
import OrderPackage

/// `--locale TAG`: which `.lproj/order.strings` resolves the localized keys of order.json
/// (`MERCHANT_NAME`) in human output. Without it, the POSIX locale variables decide, in their
/// order of precedence (`LC_ALL`, `LC_MESSAGES`, `LANG`; `C` and `POSIX` name no language);
/// when no localization matches, an order's first localization is used. `--json` prints
/// order.json's own values.
struct LocaleOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Show localized text in this language (BCP 47, e.g. de-CH; default: from LANG).", valueName: "tag"))
    var locale: String?

    /// The preferred languages, best first.
    var preferred: [String] {
        if let locale { return [locale] }
        let environment = ProcessInfo.processInfo.environment
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return value == "C" || value.hasPrefix("C.") || value == "POSIX" ? [] : [value]
        }
        return []
    }

    /// The strings table of a stored archive for these preferences; an empty table when the
    /// archive cannot be read (the raw values are shown).
    func table(for archive: Data?) -> OrderLocalizations.Table {
        guard let archive, let localizations = try? OrderLocalizations(archive: archive) else {
            return OrderLocalizations.Table(localization: nil, strings: [:])
        }
        return localizations.table(preferring: preferred)
    }
}
