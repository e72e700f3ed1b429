import ArgumentParser
import Foundation
import WalletOrders
import WalletPostgres
import WalletPrimitives
import WalletSQLite
import WalletWire

/// `orders doctor`: checks what would break a deployment — the store, each signing identity
/// (key, chain, a probe signature, expiry, its files' modes), APNs credentials, trust roots and
/// the public URL — without changing anything.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check what would break the service: store, signing identities, APNs, trust roots, public URL.",
        discussion: CommandGuide.discussion(
            "doctor",
            """
            Give it the options `orders serve` runs with (--public-url, the APNs credentials, \
            --trust-root), as the service's user: it loads what the service loads. One line per \
            check, `ok`, `warn` or `error`: the store (SQLite quick_check, or integrity_check with \
            --full; with --database, that the server answers and the schema is current) and its \
            files' modes; the trust roots; the public URL (authoring needs one); APNs (the \
            credentials load, a .p8 key signs a provider token); each signing identity (its key \
            loads — a PKCS#11 login included —, a probe signature verifies with its chain), each \
            of its certificates' expiry (a warning under 30 days), and the modes of its key, \
            passphrase and PIN files. Nothing is changed, and a missing store is not created.
            --compact then rewrites a sound SQLite store without its free pages and switches it to \
            incremental auto-vacuum (it needs free disk as large as the store, and holds the write \
            lock while it runs).
            Exit status: 0 no error (warnings allowed), 1 an error (store.corrupt, an identity that \
            cannot sign, an expired certificate, unusable APNs credentials or trust roots), 2 no \
            store or not a store.
            """))

    @Flag(help: "Run PRAGMA integrity_check (slower; also checks index contents) instead of quick_check.")
    var full = false

    @Flag(help: "After the check, give the space of deleted data back to the file system (SQLite).")
    var compact = false

    @Flag(help: "Print a JSON object.")
    var json = false

    @OptionGroup var store: StoreOptions
    @OptionGroup var trust: TrustOptions
    @OptionGroup var push: PushOptions

    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp("The public URL `orders serve` runs with (authoring needs one).", valueName: "url"))
    var publicURL: String?

    func run() async throws {
        var checks: [DoctorCheck] = []
        var sound = true
        var storeProblems: [String] = []
        let path: String?
        if let url = try store.databaseURL {
            let backend = try await PostgresBackend.open(url, options: .init(createIfMissing: false))
            try? await backend.close()
            checks.append(.ok("store", "\(url.redacted): the server answers; the schema is current"))
            path = nil
        } else {
            let file = try store.path
            storeProblems = try SQLiteBackend.check(at: file, full: full)
            sound = storeProblems == ["ok"]
            checks.append(
                sound
                    ? .ok("store", "\(file): \(full ? "integrity_check" : "quick_check") found nothing wrong")
                    : .error(
                        "store",
                        "\(file): \(storeProblems.joined(separator: "; ")). \(SQLiteBackend.corruptionAdvice(path: file))",
                        code: "store.corrupt"))
            checks.append(DeploymentDoctor.storeModes(path: file))
            path = file
        }
        checks += DeploymentDoctor.trustRoots(trust)
        checks.append(DeploymentDoctor.publicURL(publicURL))
        checks.append(DeploymentDoctor.apns(push))
        if sound {
            do {
                let wallet = try await store.wallet(trustStore: trust.usableTrustStore())
                let health = try await wallet.checkSigningIdentities()
                try? await wallet.close()
                checks += DeploymentDoctor.identities(health, now: Date())
            } catch let error as any WalletError {
                checks.append(.error("signing", error))
            } catch {
                checks.append(.error("signing", "the identities cannot be read: \(TrustOptions.reason(error))"))
            }
        }
        if json {
            Output.json(WireDoctorReport(checks: checks.map(\.wire)))
        } else {
            checks.forEach { Output.line($0.line) }
        }
        if checks.contains(where: { $0.status == .error }) { throw ExitCode(ExitStatus.invalid) }
        if compact, let path {
            let (before, after) = try await SQLiteBackend.compact(at: path)
            Output.note("compacted \(path): \(before) → \(after) bytes", toStandardError: json)
        } else if compact {
            Output.note(
                "PostgreSQL gives deleted rows' space back itself (autovacuum): nothing to compact", toStandardError: true)
        }
    }
}
