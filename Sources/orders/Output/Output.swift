import Foundation
import OrderPackage
import WalletPrimitives
import WalletWire

/// Writing to stdout and stderr, unbuffered, so the two never interleave out of order.
///
/// Two rules for everything printed:
/// - A write that fails (`> /dev/full`) is one line on stderr and exit 2, never a crash
///   (Foundation's `FileHandle.write(_:)` traps on errors). A closed pipe ends the process
///   quietly through SIGPIPE, as `orders list | head` expects.
/// - On a terminal, control characters other than newline and tab are shown as `\u{1B}`: orders
///   and feeds come from others, and an escape sequence in a merchant's name must not drive the
///   terminal. Output to files and pipes is left exact.
enum Output {
    static func line(_ text: String) {
        do {
            try FileDescriptor.writeAll(visible(text + "\n", on: STDOUT_FILENO).utf8, to: STDOUT_FILENO)
        } catch {
            _ = write("orders: cannot write standard output: \(error)\n", to: STDERR_FILENO)
            exit(ExitStatus.usageOrIO)
        }
    }

    /// `value` as one line of JSON in the wire format (WalletWire's one configuration), on stdout
    /// or, when stdout carries a file (`-o -`), on stderr.
    static func json<T: Encodable>(_ value: T, toStandardError: Bool = false) {
        do {
            let text = try WireFormat.line(value)
            if toStandardError { write(text + "\n", to: STDERR_FILENO) } else { line(text) }
        } catch {
            self.error("cannot encode the output as JSON: \(error)")
            exit(ExitStatus.usageOrIO)
        }
    }

    /// A line of output on stdout, or on stderr (unprefixed) when stdout carries a file.
    static func note(_ text: String, toStandardError: Bool) {
        if toStandardError { write(visible(text + "\n", on: STDERR_FILENO), to: STDERR_FILENO) } else { line(text) }
    }

    static func error(_ text: String) {
        let message = text.hasPrefix("Error:") || text.hasPrefix("orders:") ? text : "orders: \(text)"
        _ = write(visible(message.hasSuffix("\n") ? message : message + "\n", on: STDERR_FILENO), to: STDERR_FILENO)
    }

    static func warning(_ text: String) {
        _ = write(visible("orders: warning: \(text)\n", on: STDERR_FILENO), to: STDERR_FILENO)
    }

    /// A prompt on stderr, without a newline.
    static func prompt(_ text: String) {
        _ = write(visible(text, on: STDERR_FILENO), to: STDERR_FILENO)
    }

    /// Text written as it is, for the progress bar's own control sequences.
    static func raw(_ text: String, toStandardError: Bool = true) {
        _ = write(text, to: toStandardError ? STDERR_FILENO : STDOUT_FILENO)
    }

    /// Whether stdout is a terminal (for symbols and colour-free layout decisions).
    static var isTerminal: Bool {
        isatty(STDOUT_FILENO) == 1
    }

    private static func visible(_ text: String, on descriptor: Int32) -> String {
        guard isatty(descriptor) == 1,
            text.unicodeScalars.contains(where: { MessageText.isControl($0) && $0 != "\n" && $0 != "\t" })
        else { return text }
        return MessageText.escapingControlCharacters(text, except: ["\n", "\t"])
    }

    /// Best effort: a failed write to stderr has nowhere to be reported.
    @discardableResult
    private static func write(_ text: String, to descriptor: Int32) -> Bool {
        (try? FileDescriptor.writeAll(text.utf8, to: descriptor)) != nil
    }
}
