import ServiceCore
import WalletPrimitives

/// Two versions of an order.json compared field by field: every leaf (a string, number, boolean
/// or null, or an empty array or object) by its JSON path, in the newer version's order, then
/// what only the older one has.
struct OrderJSONDiff {
    struct Change: Equatable {
        enum Kind: String {
            case added, removed, changed
        }

        var path: String
        var kind: Kind
        var before: String?
        var after: String?
    }

    let changes: [Change]

    init(from before: JSONValue, to after: JSONValue) {
        let old = Self.leaves(of: before)
        let new = Self.leaves(of: after)
        let oldValues = Dictionary(old, uniquingKeysWith: { first, _ in first })
        let newPaths = Set(new.map(\.0))
        var changes: [Change] = []
        for (path, value) in new {
            switch oldValues[path] {
            case nil: changes.append(Change(path: path, kind: .added, before: nil, after: value))
            case let previous? where previous != value:
                changes.append(Change(path: path, kind: .changed, before: previous, after: value))
            default: break
            }
        }
        for (path, value) in old where !newPaths.contains(path) {
            changes.append(Change(path: path, kind: .removed, before: value, after: nil))
        }
        self.changes = changes
    }

    /// (path, the value's JSON text) for every leaf, in document order.
    static func leaves(of value: JSONValue, at path: String = "") -> [(String, String)] {
        switch value {
        case .object(let object) where !object.members.isEmpty:
            return object.members.flatMap { member in
                leaves(of: member.value, at: path.isEmpty ? member.key : "\(path).\(member.key)")
            }
        case .array(let items) where !items.isEmpty:
            return items.enumerated().flatMap { leaves(of: $1, at: "\(path)[\($0)]") }
        case .object: return [(path, "{}")]
        case .array: return [(path, "[]")]
        case .null: return [(path, "null")]
        case .bool(let flag): return [(path, flag ? "true" : "false")]
        case .number(let text): return [(path, text)]
        case .string(let text): return [(path, "\"\(text)\"")]
        }
    }
}
