import Foundation

/// The built `orders` executable, which sits next to the test bundle in SwiftPM's products
/// folder (`ORDERS_BINARY` overrides it, to run the tests against another build).
public enum OrdersBinary {
    public static let url: URL = {
        if let override = ProcessInfo.processInfo.environment["ORDERS_BINARY"] { return URL(fileURLWithPath: override) }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("orders")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return executable.deletingLastPathComponent().appendingPathComponent("orders")
    }()

    /// The environment a child process gets: the test runner's, without the developer's own
    /// settings that would change what a test sees.
    public static func environment(adding extra: [String: String] = [:]) -> [String: String] {
        var merged = ProcessInfo.processInfo.environment
        for name in [
            "ORDERS_TRUST_ROOTS", "ORDERS_DATABASE", "ORDERS_DATA_TYPES", "ORDERS_LOG_LEVEL", "LC_ALL", "LC_MESSAGES", "LANG",
        ] {
            merged.removeValue(forKey: name)
        }
        merged.merge(extra) { $1 }
        return merged
    }
}
