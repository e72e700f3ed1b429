import Foundation

/// Writing to stdout and stderr without buffering surprises between the two.
enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        let message = text.hasPrefix("Error:") || text.hasPrefix("orders:") ? text : "orders: \(text)"
        FileHandle.standardError.write(Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
    }

    static func warning(_ text: String) {
        FileHandle.standardError.write(Data("orders: warning: \(text)\n".utf8))
    }

    /// Whether stdout is a terminal (for symbols and colour-free layout decisions).
    static var isTerminal: Bool {
        isatty(STDOUT_FILENO) == 1
    }
}
