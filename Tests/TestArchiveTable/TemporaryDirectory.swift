import Foundation

/// The one way tests make scratch folders: a new empty folder named `prefix-UUID`, under one
/// `wallet-orders-tests` folder in the system's temporary directory (so what the tests leave is
/// easy to find and remove).
public enum TemporaryDirectory {
    public static let root = FileManager.default.temporaryDirectory.appendingPathComponent("wallet-orders-tests")

    /// A new empty folder.
    public static func make(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
