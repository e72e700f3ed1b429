import Foundation

/// A secret read from standard input, never from the command line (where `ps` and the shell's
/// history would keep it): typed at a terminal without echo, or the first line of a pipe.
enum SecretInput {
    /// The most a line may hold; a longer one is refused rather than cut.
    static let limit = 4_096

    /// Asks with `prompt` on a terminal (twice with `confirm`, which must match), or reads the
    /// first line of piped input. Nil when input ends before a line.
    static func read(prompt: String, confirm: String?) throws -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return try line() }
        guard
            let first = try withoutEcho({
                Output.prompt(prompt); return try line()
            })
        else { return nil }
        if let confirm {
            let second = try withoutEcho {
                Output.prompt(confirm); return try line()
            }
            guard second == first else { throw CommandFailure("the two entries differ; nothing was changed") }
        }
        return first
    }

    /// One line of standard input without its line ending.
    private static func line() throws -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(STDIN_FILENO, &byte, 1)
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("cannot read standard input: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
            guard bytes.count <= limit else { throw CommandFailure("the input line is longer than \(limit) bytes") }
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Runs `body` with the terminal's echo off, restoring it after (and a newline, which the
    /// person's Enter did not echo).
    private static func withoutEcho<T>(_ body: () throws -> T) throws -> T {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return try body() }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            Output.prompt("\n")
        }
        return try body()
    }
}
