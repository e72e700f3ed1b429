import Foundation
import TestArchiveTable
import Testing

/// The architecture's import rules, read from the sources (docs/design.md, "Layout").
@Suite("Layering: C, databases, the network and the server stay in their modules")
struct LayeringTests {
    /// Every Swift file under Sources/ with the modules it imports.
    static func imports() throws -> [(path: String, modules: Set<String>)] {
        let sources = TestArchiveTable.packageRoot.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        var result: [(String, Set<String>)] = []
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            let modules = text.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { return nil }
                // `import X`, `@testable import X`, `public import X`; not `import struct X.Y`.
                guard words[..<index].allSatisfy({ $0.hasPrefix("@") || $0 == "public" || $0 == "internal" }) else {
                    return nil
                }
                return String(words[index + 1])
            }
            result.append(("Sources/" + relative, Set(modules)))
        }
        return result
    }

    @Test("only Sources/OrderPackage/Wrappers/ imports libzip, zlib, the CRC-32 fold and OpenSSL")
    func cWrappers() throws {
        let files = try Self.imports()
        #expect(files.count > 50)
        let cModules: Set<String> = ["CZip", "CZlib", "CCRC32", "COpenSSL", "COpenSSLShims"]
        let offenders = files.filter { !$0.modules.isDisjoint(with: cModules) }
            .map(\.path).filter { !$0.hasPrefix("Sources/OrderPackage/Wrappers/") }
        #expect(offenders == [])
        #expect(files.contains { $0.path.hasPrefix("Sources/OrderPackage/Wrappers/") && $0.modules.contains("CZip") })
    }

    @Test("only Sources/WalletSQLite/ imports GRDB")
    func database() throws {
        let offenders = try Self.imports().filter { $0.modules.contains("GRDB") }
            .map(\.path).filter { !$0.hasPrefix("Sources/WalletSQLite/") }
        #expect(offenders == [])
    }

    @Test("SQLite's C API only where a statement is run and its row read")
    func sqliteCalls() throws {
        let users = try Self.imports().filter { $0.modules.contains("GRDBSQLite") }.map(\.path).sorted()
        #expect(
            users == [
                "Sources/WalletSQLite/Database/ImmediateBegin.swift", "Sources/WalletSQLite/Database/PreparedStatement.swift",
                "Sources/WalletSQLite/Database/SQLiteRow.swift",
            ])
    }

    @Test("only Sources/WalletPostgres/ imports postgres-nio")
    func postgres() throws {
        let offenders = try Self.imports().filter { $0.modules.contains("PostgresNIO") }
            .map(\.path).filter { !$0.hasPrefix("Sources/WalletPostgres/") }
        #expect(offenders == [])
    }

    /// The service's modules: the core, one per audience, and the assembly.
    static let serviceModules = ["ServiceCore"] + audiences + ["OrdersService"]
    /// One module per audience of the service (docs/design.md, "The service").
    static let audiences = ["DeviceAPI", "MerchantAPI", "FinanceAPI", "OwnerPages", "CustomerPages"]

    @Test(
        "Hummingbird only in the service's modules (and its bcrypt, a C library, for the owner's password); NIO only there, in WalletOutbox and in WalletPostgres"
    )
    func server() throws {
        let files = try Self.imports()
        let service = Self.serviceModules.map { "Sources/\($0)/" }
        let hummingbird = files.filter { $0.modules.contains { $0.hasPrefix("Hummingbird") } }
            .filter {
                !($0.modules == ["Foundation", "HummingbirdBcrypt"])
                    || $0.path != "Sources/WalletConsent/Owner/OwnerPassword.swift"
            }
            .map(\.path).filter { path in !service.contains { path.hasPrefix($0) } }
        #expect(hummingbird == [])
        let allowed = service + ["Sources/WalletOutbox/", "Sources/WalletPostgres/"]
        let nio = files.filter { $0.modules.contains { $0.hasPrefix("NIO") } }
            .map(\.path).filter { path in !allowed.contains { path.hasPrefix($0) } }
        #expect(nio == [])
    }

    @Test("no audience module imports another, the core imports none, and only OrdersService composes them")
    func audiences() throws {
        let files = try Self.imports()
        for audience in Self.audiences {
            let own = files.filter { $0.path.hasPrefix("Sources/\(audience)/") }
            #expect(!own.isEmpty, "\(audience) has no sources")
            let others = Set(Self.audiences).subtracting([audience])
            #expect(own.filter { !$0.modules.isDisjoint(with: others) }.map(\.path) == [], "\(audience)")
        }
        let importers = files.filter { !$0.modules.isDisjoint(with: Self.audiences) }.map(\.path)
            .filter { path in !(Self.audiences + ["OrdersService"]).contains { path.hasPrefix("Sources/\($0)/") } }
        #expect(importers == [])
        #expect(
            files.filter { $0.path.hasPrefix("Sources/ServiceCore/") && !$0.modules.isDisjoint(with: Self.audiences) }.isEmpty)
    }

    /// Every Swift file under Sources/ with its text.
    static func sources() throws -> [(path: String, text: String)] {
        let root = TestArchiveTable.packageRoot.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return try walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map {
            ("Sources/" + $0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8))
        }
    }

    @Test(
        "a caller reaches a handler typed: read as optional only where CallerContext checks it and by the pages that serve everyone; nothing above the facade reaches the backend"
    )
    func callers() throws {
        let files = try Self.sources()
        let optionalReads = files.filter { $0.text.contains("caller as?") }.map(\.path).sorted()
        #expect(optionalReads == ["Sources/OwnerPages/Session/Owner.swift", "Sources/ServiceCore/HTTP/CallerContext.swift"])
        let everyone = ["Sources/OwnerPages/Page/PageErrorMiddleware.swift", "Sources/OwnerPages/Session/SignInPages.swift"]
        let ownerReads = files.filter { $0.text.contains("context.owner") }.map(\.path).sorted()
        #expect(ownerReads == everyone)
        let storage = ["Sources/WalletOrders/", "Sources/WalletStorage/", "Sources/WalletSQLite/", "Sources/WalletPostgres/"]
        let backend = files.filter { file in
            !storage.contains { file.path.hasPrefix($0) } && file.text.contains("wallet.backend")
        }
        #expect(backend.map(\.path) == [])
    }

    @Test(
        "merchants reach orders through MerchantOrders, never FinanceKit's FinanceStore; the backend is a testing SPI (issue 54, item 3)"
    )
    func merchantFacade() throws {
        let merchantAPI = try Self.sources().filter { $0.path.hasPrefix("Sources/MerchantAPI/") }
        #expect(merchantAPI.count > 3)
        #expect(merchantAPI.filter { $0.text.contains("FinanceStore") || $0.text.contains("financeStore(") }.map(\.path) == [])
        #expect(merchantAPI.contains { $0.text.contains("merchantOrders(for:") })
        // The backend is no API: above the store, only tests reach it, through the testing SPI.
        let store = try #require(try Self.sources().first { $0.path == "Sources/WalletOrders/WalletStore.swift" })
        #expect(store.text.contains("@_spi(Testing) public let backend: any StorageBackend"))
    }

    @Test(
        "storage rules are written once: a backend's dialect enqueues no push and writes no receipt; authoring reads the store once (issue 54, item 3)"
    )
    func rulesWrittenOnce() throws {
        let backends = try Self.sources().filter {
            $0.path.hasPrefix("Sources/WalletSQLite/") || $0.path.hasPrefix("Sources/WalletPostgres/")
        }
        #expect(backends.count > 10)
        #expect(backends.filter { $0.text.contains("INSERT INTO pushOutbox") }.map(\.path) == [])
        #expect(backends.filter { $0.text.contains("INSERT INTO requestReceipts") }.map(\.path) == [])
        let storage = try Self.sources().filter { $0.path.hasPrefix("Sources/WalletStorage/") }
        #expect(
            storage.filter { $0.text.contains("INSERT INTO pushOutbox") }.map(\.path) == [
                "Sources/WalletStorage/Orders/PushEnqueue.swift"
            ])
        // Authoring reads through its one read (AuthoringBasis), not the repositories one by one.
        let authoring = try #require(
            try Self.sources().first { $0.path == "Sources/WalletOrders/Authoring/OrderAuthoring.swift" })
        #expect(authoring.text.components(separatedBy: "wallet.backend.").count == 2)
        #expect(authoring.text.contains("wallet.backend.authoringBasis("))
    }

    @Test(
        "one threading model: each backend's threads are its own, entered by its executor; only OrdersServer runs the service on them; no body on an event loop (issue 54, item 4)"
    )
    func threadingModel() throws {
        let files = try Self.sources()
        // Each backend makes its threads once and names them in its own module only.
        #expect(
            files.filter { $0.text.contains("StorageThreads(") }.map(\.path).sorted() == [
                "Sources/WalletPostgres/Database/PostgresThreads.swift", "Sources/WalletSQLite/Database/StatementThreads.swift",
            ])
        #expect(files.filter { $0.text.contains("PostgresThreads.") && !$0.path.hasPrefix("Sources/WalletPostgres/") }.isEmpty)
        #expect(files.filter { $0.text.contains("StatementThreads.") && !$0.path.hasPrefix("Sources/WalletSQLite/") }.isEmpty)
        // A task prefers an executor only where storage enters its threads, where a statement is
        // sent on its connection's loop, and where the server runs its services.
        let preferring = files.filter { $0.text.contains("await withTaskExecutorPreference(") }.map(\.path).sorted()
        #expect(
            preferring == [
                "Sources/OrdersService/OrdersServer.swift",
                "Sources/WalletPostgres/Database/PostgresConnection+Statements.swift",
                "Sources/WalletPostgres/Database/PostgresExecutor.swift",
                "Sources/WalletSQLite/Copy/SQLiteStoreSnapshot.swift",
                "Sources/WalletSQLite/Database/SQLiteExecutor.swift",
            ])
        let executor = try #require(files.first { $0.path == "Sources/WalletPostgres/Database/PostgresExecutor.swift" })
        #expect(!executor.text.contains("EventLoopTaskExecutor"), "a transaction's body runs on PostgresThreads, not a loop")
        let servers = try #require(files.first { $0.path == "Sources/WalletPostgres/Database/PostgresServers.swift" })
        #expect(!servers.text.contains(".singleton"), "PostgreSQL's connections use their own event loop group")
    }

    @Test("OrderTracking reads providers' bodies without a server or a database: only the order model and the primitives")
    func tracking() throws {
        let allowed: Set<String> = ["Foundation", "OrderPackage", "WalletPrimitives"]
        let files = try Self.imports().filter { $0.path.hasPrefix("Sources/OrderTracking/") }
        #expect(files.count > 5)
        #expect(files.filter { !$0.modules.isSubset(of: allowed) }.map(\.path) == [])
    }

    @Test("OrderRendering renders without a server, a database or the network: only the order, its archive and Mustache")
    func rendering() throws {
        let allowed: Set<String> = ["Foundation", "OrderPackage", "WalletPrimitives", "Mustache"]
        let files = try Self.imports().filter { $0.path.hasPrefix("Sources/OrderRendering/") }
        #expect(files.count > 5)
        #expect(files.filter { !$0.modules.isSubset(of: allowed) }.map(\.path) == [])
    }

    @Test("the CLI maps flags: no server, network or database library in Sources/orders/")
    func commandLine() throws {
        let forbidden = ["GRDB", "PostgresNIO", "ServiceLifecycle", "AsyncHTTPClient", "HTTPTypes"]
        let offenders = try Self.imports().filter { $0.path.hasPrefix("Sources/orders/") }.filter { file in
            file.modules.contains { module in
                forbidden.contains(module) || module.hasPrefix("NIO") || module.hasPrefix("Hummingbird")
            }
        }
        #expect(offenders.map(\.path) == [])
    }

    @Test("WalletOrders exports no backend")
    func facade() throws {
        let exports = try String(
            contentsOf: TestArchiveTable.packageRoot.appendingPathComponent("Sources/WalletOrders/Exports.swift"), encoding: .utf8
        )
        let exported = exports.split(separator: "\n").filter { $0.hasPrefix("@_exported import ") }
            .map { String($0.dropFirst("@_exported import ".count)) }
        #expect(exported.contains("WalletStorage"))
        #expect(!exported.contains("WalletSQLite") && !exported.contains("WalletPostgres"))
    }
}
