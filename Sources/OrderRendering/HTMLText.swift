/// Text made safe for HTML element content and quoted attribute values: the five characters
/// with a meaning there become references (what Mustache's `{{name}}` does, for the few pieces
/// this module assembles itself: SVG labels and `data:` URIs).
enum HTMLText {
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
