import Foundation

/// Reads whole files for the commands.
enum FileInput {
    /// The file's bytes. Uses `FileHandle` rather than `Data(contentsOf:)`, which leaks its read
    /// buffer for zero-byte files in this Foundation (seen with LeakSanitizer).
    static func read(_ path: String) throws -> Data {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }
}
