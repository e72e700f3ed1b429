import Foundation

/// What a merchant sends to author an order's next version.
public enum OrderAuthoringContent: Sendable, Hashable {
    /// A whole order.json, with the package's other files by name (images, `xx.lproj/order.strings`);
    /// nil keeps the current version's files.
    case replace(orderJSON: Data, resources: [String: Data]?)
    /// An RFC 7396 JSON Merge Patch against the current version's order.json; the current
    /// version's other files are kept.
    case mergePatch(Data)

    /// Whether a package file named `name` is one the service writes itself when it signs
    /// (`manifest.json`, `signature`), in any case: sent, it is refused, not dropped.
    public static func isWrittenByTheService(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered == "manifest.json" || lowered == "signature"
    }
}
