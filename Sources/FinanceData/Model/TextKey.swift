import Foundation

/// The stored form of text that queries compare: NFC-normalized, so that canonically equivalent
/// strings are identical for every backend, as Swift's `==` treats them.
package enum TextKey {
    package static func normalized(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping
    }
}
