import Foundation
import Glibc
import OrderPackage
import OrderStorage
import WalletOrders
import WalletOutbox
import WalletPrimitives
import WalletSQLite

/// The checks `orders doctor` runs beyond the store's pages: what stops a deployment from
/// authoring, pushing or verifying, found before a request does.
enum DeploymentDoctor {
    /// Each extra trust root readable and a certificate.
    static func trustRoots(_ trust: TrustOptions) -> [DoctorCheck] {
        let paths = trust.rootPaths
        guard !paths.isEmpty else { return [.ok("trust-roots", "Apple's roots only (no --trust-root or ORDERS_TRUST_ROOTS)")] }
        do {
            _ = try trust.trustStore()
            return [.ok("trust-roots", "Apple's roots and \(paths.count) more: \(paths.joined(separator: ", "))")]
        } catch {
            return [.error("trust-roots", TrustOptions.reason(error))]
        }
    }

    /// A public URL: authoring needs one for every version's `webServiceURL`.
    static func publicURL(_ url: String?) -> DoctorCheck {
        guard let url else {
            return .warn(
                "public-url",
                "none given (--public-url): authoring is refused (authoring.publicURLRequired) unless an order names a URL "
                    + "allowed for its type, and the OAuth issuer is each request's own Host")
        }
        guard ServeCommand.isOrigin(url) else {
            return .error(
                "public-url", "\(MessageText.quote(url)) is not an origin, https://HOST[:PORT] (orders serve refuses it)")
        }
        // `orders serve` takes http for a machine of one's own; Wallet takes only https web services.
        guard url.lowercased().hasPrefix("https://") else {
            return .error("public-url", "\(MessageText.quote(url)) is not https: Wallet devices refuse an http webServiceURL")
        }
        return .ok("public-url", url)
    }

    /// APNs credentials that load, and for a `.p8` key a provider token signed with it.
    static func apns(_ push: PushOptions) -> DoctorCheck {
        let configuration: APNsConfiguration?
        do {
            configuration = try push.configuration()
        } catch {
            return .error("apns", TrustOptions.reason(error))
        }
        guard let configuration else {
            return .warn(
                "apns",
                "no credentials (--push-key-p8 with --key-id and --team-id, or --push-certificate with --push-key): "
                    + "pushes are logged, not sent")
        }
        do {
            try APNsClient.check(configuration)
        } catch {
            return .error("apns", "the credentials cannot be used: \(error)")
        }
        switch configuration.authentication {
        case .token(_, let keyIdentifier, let teamIdentifier):
            return .ok("apns", "the .p8 key loads and signs a provider token (key \(keyIdentifier), team \(teamIdentifier))")
        case .certificate:
            return .ok("apns", "the push certificate and its key load")
        }
    }

    /// Per identity: whether it signs (key, passphrase or PIN, chain, a probe signature), each
    /// certificate's expiry, and the modes of the files that hold its secrets.
    static func identities(_ health: [SigningIdentityHealth], now: Date) -> [DoctorCheck] {
        guard !health.isEmpty else {
            return [.ok("signing", "no signing identities (orders signing add): nothing to author with")]
        }
        var checks: [DoctorCheck] = []
        for identity in health {
            let type = identity.identity.orderTypeIdentifier + (identity.isStaged ? " (staged)" : "")
            if let failure = identity.failure {
                checks.append(.error("signing \(type)", failure))
            } else {
                checks.append(
                    .ok(
                        "signing \(type)",
                        "the key loads (\(identity.identity.key.summary)); a probe signature verifies with its chain"))
            }
            for expiry in identity.expiries {
                checks.append(self.expiry(expiry, of: type, now: now))
            }
            checks += secretFiles(identity.identity.key, of: type)
        }
        return checks
    }

    static func expiry(_ expiry: CertificateExpiry, of type: String, now: Date) -> DoctorCheck {
        let check = "expiry \(type) \(expiry.role.rawValue)"
        let days = expiry.daysLeft(at: now)
        let when = RFC3339Timestamp(expiry.notAfter).text
        if expiry.notAfter <= now {
            return .error(check, "\(expiry.subject) expired at \(when)", code: "signing.certificateExpired")
        }
        let detail = "\(expiry.subject) expires at \(when), in \(days) days"
        if days < CertificateExpiry.warningDays {
            let step =
                expiry.role == .certificate
                ? "request a new Order Type ID certificate and add it" : "add Apple's current WWDR intermediate"
            return .warn(check, "\(detail): \(step) (orders signing add)")
        }
        return .ok(check, detail)
    }

    /// Key, passphrase and PIN files readable by everyone are a warning, as `orders signing add` says.
    static func secretFiles(_ key: SigningKeyLocation, of type: String) -> [DoctorCheck] {
        var files: [(String, String)] = []
        switch key {
        case .file(let path, let passphrase):
            files.append(("key", path))
            if case .file(let path)? = passphrase { files.append(("passphrase", path)) }
        case .pkcs11(_, _, let pin):
            if case .file(let path)? = pin { files.append(("PIN", path)) }
        }
        guard !files.isEmpty else { return [] }
        let open = files.compactMap { what, path in
            SecretFileMode.readableByOthers(path).map {
                "the \(what) file \(path) is readable by everyone (\(FileModeText.octal($0)))"
            }
        }
        guard open.isEmpty else {
            return [.warn("files \(type)", open.joined(separator: "; ") + ": chmod 600 (or 640 with the service's group)")]
        }
        return [.ok("files \(type)", files.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ": not readable by others")]
    }

    /// The store's files (SQLite): no wider than a mode the store creates them with
    /// (``WalletSQLite/StoreFileMode``: the owner alone, or its group reading).
    static func storeModes(path: String) -> DoctorCheck {
        let widest = StoreFileMode.allCases.reduce(mode_t(0)) { $0 | $1.fileMode }
        var open: [String] = []
        var seen: [String] = []
        for file in [path, path + "-wal", path + "-shm"] {
            var status = stat()
            guard stat(file, &status) == 0 else { continue }
            let mode = status.st_mode & 0o7777
            seen.append("\(URL(fileURLWithPath: file).lastPathComponent) \(FileModeText.octal(mode))")
            if mode & ~widest != 0 { open.append("\(file) is \(FileModeText.octal(mode))") }
        }
        guard open.isEmpty else {
            return .warn(
                "store-files",
                open.joined(separator: "; ")
                    + ": the store holds order tokens and the owner's password hash; chmod 600 (or 640 for the service's group)")
        }
        return .ok("store-files", seen.joined(separator: ", "))
    }
}
