import Foundation

/// Where an order type's private key is: what a store keeps instead of the key itself.
///
/// A file is read, and a token's key loaded, each time a signer is made from the location
/// (``OrderSigner/init(certificate:key:intermediates:)``); a server makes it once and keeps it.
/// Secrets — a file's passphrase, a token's PIN — are named by a ``SecretSource``, never held.
///
/// Stored as JSON (the synthesized `Codable` form, e.g.
/// `{"pkcs11":{"uri":"pkcs11:token=shop;object=order-key","module":"/usr/lib/softhsm/libsofthsm2.so"}}`),
/// so its case and argument names are part of the store's format.
public enum SigningKeyLocation: Sendable, Hashable, Codable {
    /// A PEM (PKCS#8 or traditional) or PKCS#12 (`.p12`) file at an absolute path, with where
    /// its passphrase is when it is encrypted.
    case file(path: String, passphrase: SecretSource?)
    /// A key in a PKCS#11 token named by an RFC 7512 URI (`pkcs11:token=…;object=…`), through
    /// OpenSSL's `pkcs11` engine and `module` (nil: p11-kit's proxy, which loads every module
    /// registered with p11-kit), logging in with the PIN from `pin`.
    case pkcs11(uri: String, module: String?, pin: SecretSource?)

    /// The stored form: the `Codable` JSON with sorted keys and unescaped slashes, one text per
    /// location (what a store keeps, and what an identity's revision is computed from).
    public var canonicalJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A location is strings and optionals: encoding it cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? summary
    }

    /// What a person reads in a listing: the path or URI and where the secret is, never a secret.
    public var summary: String {
        switch self {
        case .file(let path, let passphrase):
            "file \(path)" + (passphrase.map { ", passphrase from \($0.summary)" } ?? "")
        case .pkcs11(let uri, let module, let pin):
            "\(uri)" + (module.map { " via \($0)" } ?? "") + (pin.map { ", PIN from \($0.summary)" } ?? "")
        }
    }

    /// The RFC 7512 attributes that say where a PIN is, or hold it: the PIN comes only from
    /// ``SecretSource`` (docs/authoring.md), so a URI naming either is refused.
    static let pinAttributes = ["pin-value", "pin-source"]

    /// Refuses a location that would put a secret in the store or read it from elsewhere than its
    /// ``SecretSource``: a URI with `pin-value` or `pin-source`, or a URI that is not a PKCS#11 URI
    /// at all.
    public func checkStorable() throws(OrderSignerError) {
        guard case .pkcs11(let uri, _, _) = self else { return }
        guard uri.lowercased().hasPrefix("pkcs11:") else {
            throw .invalidPrivateKey(reason: "\(uri.debugDescription) is not a PKCS#11 URI (RFC 7512: pkcs11:token=…;object=…)")
        }
        let attributes = uri.dropFirst("pkcs11:".count).split(whereSeparator: { $0 == ";" || $0 == "?" || $0 == "&" })
        for attribute in attributes {
            let name = attribute.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces).lowercased()
            if Self.pinAttributes.contains(name) { throw .secretInKeyLocation(attribute: name) }
        }
    }
}

/// Where a secret is read from when it is needed: a file's first line, or an environment
/// variable of the process that signs.
public enum SecretSource: Sendable, Hashable, Codable {
    case file(path: String)
    case environment(name: String)

    /// The most a secret may hold; a longer one is refused rather than cut.
    public static let limit = 4_096

    /// `file /run/secrets/shop-key` or `$SHOP_KEY_PASSPHRASE`.
    public var summary: String {
        switch self {
        case .file(let path): "file \(path)"
        case .environment(let name): "$\(name)"
        }
    }

    /// The secret: a file's first line without its line ending, or the variable's value.
    public func read() throws(OrderSignerError) -> String {
        switch self {
        case .environment(let name):
            guard let value = ProcessInfo.processInfo.environment[name] else {
                throw .secretUnavailable(source: summary, reason: "the variable is not set")
            }
            guard value.utf8.count <= Self.limit else {
                throw .secretUnavailable(source: summary, reason: "longer than \(Self.limit) bytes")
            }
            return value
        case .file(let path):
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw .secretUnavailable(source: summary, reason: FileAccess.problem(reading: path) ?? "cannot open the file")
            }
            defer { try? handle.close() }
            let bytes = (try? handle.read(upToCount: Self.limit + 2)) ?? Data()
            var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
            guard line.count <= Self.limit else {
                throw .secretUnavailable(source: summary, reason: "longer than \(Self.limit) bytes")
            }
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            return String(decoding: line, as: UTF8.self)
        }
    }
}
