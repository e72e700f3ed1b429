import FinanceData
import Foundation

/// The owner's locale for dates and amounts on the pages: the first language of
/// `Accept-Language` (RFC 9110 §12.5.4) that is a well-formed tag, by quality; English otherwise.
/// The pages' own words come from ``PageText``; dates are shown in this server's time zone (`TZ`).
package struct PageLocale: Sendable {
    package let locale: Locale
    /// The header's language tags, best first (``languages(_:)``).
    package let languages: [String]

    package static let fallback = Locale(identifier: "en_US")

    /// At most this many header entries are looked at (the header is a stranger's).
    package static let maximumEntries = 20

    package init(acceptLanguage header: String?) {
        languages = Self.languages(header)
        locale = languages.first.map { Locale(identifier: $0.replacingOccurrences(of: "-", with: "_")) } ?? Self.fallback
    }

    /// The header's well-formed language tags with a quality above zero, best first (ties in
    /// the header's order).
    package static func languages(_ header: String?) -> [String] {
        guard let header, header.utf8.count <= 1_000 else { return [] }
        var candidates: [(tag: String, quality: Double, order: Int)] = []
        for (order, entry) in header.split(separator: ",").prefix(maximumEntries).enumerated() {
            let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, isLanguageTag(tag) else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if quality > 0 { candidates.append((tag, quality, order)) }
        }
        return candidates.sorted(by: { ($0.quality, -$0.order) > ($1.quality, -$1.order) }).map(\.tag)
    }

    /// `en`, `de-CH`, `zh-Hant-TW`: letters and digits in parts of 1–8, at most 35 characters.
    package static func isLanguageTag(_ tag: String) -> Bool {
        guard (2...35).contains(tag.utf8.count), tag.first?.isLetter == true else { return false }
        return tag.split(separator: "-", omittingEmptySubsequences: false).allSatisfy { part in
            (1...8).contains(part.count)
                && part.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        }
    }

    /// `12 Mar 2026` in the locale's order.
    package func day(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale, timeZone: .current))
    }

    /// `2026-03-12`, for `<input type="date">` (in this server's time zone).
    package static func isoDay(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    /// The start of the day an `<input type="date">` value names, in this server's time zone;
    /// nil for anything else.
    package static func date(fromISODay text: String) -> Date? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1900...9999).contains(year)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    /// `-€1,234.50` / `-1.234,50 €`: signed, with the currency's own minor units.
    package func amount(_ value: Decimal, currency: String) -> String {
        value.formatted(.currency(code: currency).locale(locale))
    }
}
