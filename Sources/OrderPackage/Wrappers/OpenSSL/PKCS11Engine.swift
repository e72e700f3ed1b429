import COpenSSL
import COpenSSLShims
import Foundation
import Synchronization

/// OpenSSL's `pkcs11` engine (libp11, Debian's `libengine-pkcs11-openssl`) bound to one PKCS#11
/// module: the way to a private key that stays in an HSM or a token.
///
/// One engine per module path for the life of the process: keys loaded through it refer to it,
/// and initialising a module twice is what PKCS#11 forbids. Loading is serialised (libp11 logs in
/// and searches with the engine's one session state); signing with a loaded key is not.
final class PKCS11Engine: @unchecked Sendable {
    private let pointer: OpaquePointer
    private let lock = Mutex(())

    private static let engines = Mutex<[String: PKCS11Engine]>([:])

    /// The engine for `modulePath`; nil means the engine's default module (p11-kit's proxy, which
    /// loads every module registered with p11-kit).
    static func engine(modulePath: String?) throws(OpenSSLError) -> PKCS11Engine {
        let key = modulePath ?? ""
        return try engines.withLock { engines throws(OpenSSLError) in
            if let engine = engines[key] { return engine }
            let engine = try PKCS11Engine(modulePath: modulePath)
            engines[key] = engine
            return engine
        }
    }

    private init(modulePath: String?) throws(OpenSSLError) {
        OpenSSLError.clearQueue()
        if let modulePath, !FileManager.default.isReadableFile(atPath: modulePath) {
            throw OpenSSLError("read the PKCS#11 module \(modulePath)")
        }
        guard let engine = wo_ENGINE_by_id("pkcs11") else {
            throw OpenSSLError("load OpenSSL's pkcs11 engine (Debian: libengine-pkcs11-openssl)")
        }
        // libp11 writes its own diagnostics to standard error unless quiet; its reasons reach
        // the error queue as well, and from there the refusal's message.
        _ = wo_ENGINE_ctrl_cmd_string(engine, "QUIET", nil)
        if let modulePath {
            guard wo_ENGINE_ctrl_cmd_string(engine, "MODULE_PATH", modulePath) == 1 else {
                wo_ENGINE_free(engine)
                throw OpenSSLError("set the PKCS#11 module")
            }
        }
        guard wo_ENGINE_init(engine) == 1 else {
            wo_ENGINE_free(engine)
            throw OpenSSLError("initialise the PKCS#11 module")
        }
        // ENGINE_init took a functional reference; the structural one from ENGINE_by_id is kept
        // as well, for as long as the process lives.
        pointer = engine
    }

    /// The private key an RFC 7512 URI names, logging in with `pin` when given.
    func privateKey(uri: String, pin: String?) throws(OpenSSLError) -> PrivateKey {
        try lock.withLock { _ throws(OpenSSLError) in
            OpenSSLError.clearQueue()
            if let pin {
                guard wo_ENGINE_ctrl_cmd_string(pointer, "PIN", pin) == 1 else { throw OpenSSLError("set the PIN") }
            }
            // Without a PIN the engine would ask on the terminal; this UI reads nothing, so a
            // token that needs one refuses instead.
            guard let silent = UI_create_method("wallet-orders: no prompt") else { throw OpenSSLError("create a UI") }
            defer { UI_destroy_method(silent) }
            guard let key = wo_ENGINE_load_private_key(pointer, uri, silent) else {
                throw OpenSSLError("load the private key from the token")
            }
            return PrivateKey(taking: key)
        }
    }
}
