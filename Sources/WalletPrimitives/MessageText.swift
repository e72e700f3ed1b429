/// How messages show values they were given.
///
/// In single quotes; at most ``maximumLength`` characters, because a message never repeats a huge
/// input whole (an identifier or URL can be megabytes); and with control characters written as
/// `\u{1B}`, because a message is printed on a terminal that an escape sequence would drive.
///
/// ```swift
/// MessageText.quote("ORDER-\u{1B}[2J")   // 'ORDER-\u{1B}[2J'
/// ```
public enum MessageText {
    public static let maximumLength = 80

    public static func quote(_ value: some StringProtocol) -> String {
        "'" + visible(value) + "'"
    }

    /// ``quote(_:)`` without the quotes.
    public static func visible(_ value: some StringProtocol) -> String {
        var result = ""
        var characters = 0
        for character in value {
            if characters == maximumLength {
                return result + "… (\(value.count) characters)"
            }
            characters += 1
            if character.unicodeScalars.contains(where: isControl) {
                for scalar in character.unicodeScalars { result += isControl(scalar) ? escaped(scalar) : String(scalar) }
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// `text` with every control character but those in `allowed` written as `\u{…}`.
    public static func escapingControlCharacters(_ text: String, except allowed: Set<Unicode.Scalar> = []) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !allowed.contains(scalar) {
                result.append(contentsOf: escaped(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `\u{1B}`.
    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    }

    /// C0, DEL and C1 controls.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
