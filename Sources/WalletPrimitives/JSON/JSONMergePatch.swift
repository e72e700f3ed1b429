/// RFC 7396 JSON Merge Patch: a patch object's members replace the target's, `null` removes one,
/// nested objects merge recursively; any other patch (an array, a string…) replaces the target
/// whole. Member order is kept: replaced members stay where they were, new ones come last.
///
/// ```
/// {"status":"open","fulfillments":[…]}  +  {"status":"completed","returns":null}
///   = {"status":"completed","fulfillments":[…]}
/// ```
public enum JSONMergePatch {
    public static func apply(_ patch: JSONValue, to target: JSONValue) -> JSONValue {
        guard case .object(let patchObject) = patch else { return patch }
        var result: JSONObject
        if case .object(let targetObject) = target { result = targetObject } else { result = JSONObject() }
        for member in patchObject.members {
            if member.value == .null {
                result.removeValue(forKey: member.key)
            } else {
                result[member.key] = apply(member.value, to: result[member.key] ?? .null)
            }
        }
        return .object(result)
    }
}

extension JSONObject {
    /// The value for `key`; setting one replaces the member in place or appends it, setting nil
    /// removes it.
    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            guard let newValue else {
                removeValue(forKey: key)
                return
            }
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].value = newValue
            } else {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// Removes the member `key`, if there is one.
    public mutating func removeValue(forKey key: String) {
        members.removeAll { $0.key == key }
    }
}
