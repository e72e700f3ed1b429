import COpenSSL
import COpenSSLShims
import Foundation
import Synchronization

/// OpenSSL's `pkcs11` engine (libp11, Debian's `libengine-pkcs11-openssl`) bound to one PKCS#11
/// module: the way to a private key that stays in an HSM or a token.
///
/// One engine per module path while it serves keys: keys loaded through it refer to it, and
/// initialising a module twice is what PKCS#11 forbids. Loading is serialised (libp11 logs in
/// and searches with the engine's one session state); signing with a loaded key is not.
///
/// A module reads its tokens when it is initialised (SoftHSM2 its token folder): one initialised
/// while the process could not read them never finds them. So an engine that has given out no
/// key is finished after a failed load (``resetAfterFailure(modulePath:)``) and the next load
/// initialises the module again — fixing a folder's owner or mode works without a restart. One
/// that has given out a key stays: finishing it would end its keys' sessions.
final class PKCS11Engine: @unchecked Sendable {
    private let pointer: OpaquePointer
    /// Whether a key was loaded through it, and whether it was finished.
    private let state = Mutex((hasGivenKeys: false, isFinished: false))

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

    /// Finishes the engine of `modulePath` if it has given out no key, so that the next load
    /// initialises the module again.
    static func resetAfterFailure(modulePath: String?) {
        engines.withLock { engines in
            let key = modulePath ?? ""
            guard let engine = engines[key], engine.finishIfUnused() else { return }
            engines[key] = nil
        }
    }

    private func finishIfUnused() -> Bool {
        state.withLock { state in
            guard !state.hasGivenKeys, !state.isFinished else { return false }
            state.isFinished = true
            // ENGINE_finish drops the functional reference ENGINE_init took (libp11 then
            // finalises the module), ENGINE_free the structural one.
            _ = wo_ENGINE_finish(pointer)
            _ = wo_ENGINE_free(pointer)
            return true
        }
    }

    /// The private key an RFC 7512 URI names, logging in with `pin` when given.
    func privateKey(uri: String, pin: String?) throws(OpenSSLError) -> PrivateKey {
        try state.withLock { state throws(OpenSSLError) in
            guard !state.isFinished else { throw OpenSSLError("use the PKCS#11 module, which is being initialised again") }
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
            state.hasGivenKeys = true
            return PrivateKey(taking: key)
        }
    }
}
