import Foundation
import TestArchiveTable
import Testing

@testable import OrderPackage

@Suite("OrderLocalizations: which order.strings a reader sees")
struct OrderLocalizationsTests {
    @Test(
        "exact tag, then the language, then another region, then the first localization",
        arguments: [
            (["de-CH"], "de-CH"), (["de_ch.UTF-8"], "de-CH"), (["de-AT"], "de"), (["pt-PT"], "pt-BR"),
            (["fr", "pt"], "pt-BR"), (["ja"], "de"), ([], "de"), (["zh-hans-cn"], "zh-Hans"), ([""], "de"),
        ] as [([String], String)])
    func choice(_ preferred: [String], _ expected: String) {
        let available = ["de", "de-CH", "en", "pt-BR", "zh-Hans"]
        #expect(OrderLocalizations.choose(from: available, preferring: preferred) == expected)
    }

    @Test("a localized archive's tables; values that are not keys are shown as they are")
    func tables() throws {
        let localizations = try OrderLocalizations(archive: TestArchiveTable.data("valid/localized.order"))
        #expect(localizations.localizations == ["de", "en", "zh-Hans"])
        let english = localizations.table(preferring: ["en-US"])
        #expect(english.localization == "en")
        #expect(english.text(for: "MERCHANT_NAME") == "Example Shop")
        #expect(english.text(for: "Not a key") == "Not a key")
        let none = try OrderLocalizations(archive: TestArchiveTable.data("valid/basic.order")).table(preferring: ["en"])
        #expect(none.localization == nil && none.text(for: "MERCHANT_NAME") == "MERCHANT_NAME")
    }
}
