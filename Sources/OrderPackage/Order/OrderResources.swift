/// Where a file that order.json names (`logo.png`) is in a package, as Wallet looks for it: the
/// name, `@2x` and `@3x` variants, in the reader's `.lproj` folder and at the root.
public enum OrderResources {
    /// `logo.png` → `logo.png`, `logo@2x.png`, `logo@3x.png`.
    public static func variants(of name: String) -> [String] {
        guard let dot = name.lastIndex(of: ".") else { return [name] }
        let stem = name[..<dot]
        let suffix = name[dot...]
        return [name, "\(stem)@2x\(suffix)", "\(stem)@3x\(suffix)"]
    }

    /// The entry names to try for `name`, best first: the localization's folder before the root,
    /// the sharpest variant first in each.
    public static func candidates(for name: String, localization: String?) -> [String] {
        let folders = (localization.map { ["\($0).lproj/"] } ?? []) + [""]
        return folders.flatMap { folder in variants(of: name).reversed().map { folder + $0 } }
    }
}
