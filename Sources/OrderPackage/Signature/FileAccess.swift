import Foundation
import WalletPrimitives

#if canImport(Glibc)
    import Glibc
#endif

/// Why this process cannot read a file, in the words an operator acts on: missing, or there but
/// not readable by this process's user (with the file's owner, group and mode, and the user), or
/// a folder on the way that this user cannot enter. A service running as its own user
/// (`User=orders`) meets the second and third; "not found" would send the operator looking for
/// a file that is there.
enum FileAccess {
    /// Nil when the file is readable.
    static func problem(reading path: String) -> String? {
        if access(path, R_OK) == 0 { return nil }
        let code = errno
        if code == EACCES {
            if let folder = closedFolder(on: path) {
                return "\(path): permission denied: this process (\(processUser)) cannot enter the folder \(folder.path) "
                    + "(\(folder.owner), mode \(folder.mode))"
            }
            if let file = owner(of: path) {
                return "\(path): permission denied: the file is \(file.owner), mode \(file.mode), and this process runs as "
                    + "\(processUser)"
            }
        }
        return "\(path): \(String(cString: strerror(code)))"
    }

    /// The first folder on the way to `path` this process cannot search.
    static func closedFolder(on path: String) -> (path: String, owner: String, mode: String)? {
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var folders: [String] = []
        while folder.path != "/" && !folder.path.isEmpty {
            folders.append(folder.path)
            folder = folder.deletingLastPathComponent()
        }
        for folder in folders.reversed() where access(folder, X_OK) != 0 && errno == EACCES {
            guard let status = owner(of: folder) else { return nil }
            return (folder, status.owner, status.mode)
        }
        return nil
    }

    /// `user:group` (names when known) and the octal mode of `path`.
    static func owner(of path: String) -> (owner: String, mode: String)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return ("\(userName(status.st_uid)):\(groupName(status.st_gid))", FileModeText.octal(status.st_mode))
    }

    /// This process's effective user, `name (uid N)`.
    static var processUser: String {
        let uid = geteuid()
        return "\(userName(uid)) (uid \(uid))"
    }

    private static func userName(_ uid: uid_t) -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        return buffer.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, getpwuid_r(uid, &entry, base, buffer.count, &found) == 0, found != nil,
                let name = entry.pw_name
            else { return String(uid) }
            return String(cString: name)
        }
    }

    private static func groupName(_ gid: gid_t) -> String {
        var entry = group()
        var found: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        return buffer.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, getgrgid_r(gid, &entry, base, buffer.count, &found) == 0, found != nil,
                let name = entry.gr_name
            else { return String(gid) }
            return String(cString: name)
        }
    }

    /// For a key in a SoftHSM2 token: the token folder (`directories.tokendir` of `SOFTHSM2_CONF`,
    /// else `/etc/softhsm/softhsm2.conf`) or a token in it that this process cannot read — which
    /// SoftHSM2 reports only as a token or object not found.
    static func softHSMTokenProblem() -> String? {
        let configuration = ProcessInfo.processInfo.environment["SOFTHSM2_CONF"] ?? "/etc/softhsm/softhsm2.conf"
        guard let text = try? String(contentsOfFile: configuration, encoding: .utf8) else { return nil }
        let folder = text.split(separator: "\n").lazy.compactMap { line -> String? in
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            return parts.count == 2 && parts[0] == "directories.tokendir" ? parts[1] : nil
        }.first
        guard let folder else { return nil }
        for path in [folder] + ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map({ folder + "/" + $0 })
        where access(path, R_OK | X_OK) != 0 && errno == EACCES {
            let status = owner(of: path)
            return "the token folder \(path) is not readable by this process (\(processUser))"
                + (status.map { ": it is \($0.owner), mode \($0.mode)" } ?? "")
                + "; give the service's user the token folder (chown -R), as docs/deployment.md does"
        }
        return nil
    }
}
