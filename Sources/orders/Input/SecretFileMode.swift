import Glibc
import WalletPrimitives

/// Warns when a file holding a secret — a private key, a passphrase, a PIN — can be read by
/// every user of the machine. The command goes on (exit 0): the operator decides, but is told,
/// naming the file, its mode and the fix.
enum SecretFileMode {
    /// The permission bits of `path` when others may read it, else nil (also for a file that
    /// cannot be examined: reading it will say why).
    static func readableByOthers(_ path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IROTH != 0 else { return nil }
        return status.st_mode & 0o7777
    }

    /// One warning line for `path` (`what`: "the key file") if others may read it.
    static func warn(_ path: String, what: String) {
        guard let mode = readableByOthers(path) else { return }
        Output.warning(
            "\(what) \(path) is readable by every user of this machine (mode \(FileModeText.octal(mode))); "
                + "make it private: chmod 600 \(path)")
    }
}
