import Foundation
import OrderPackage
import OrderStorage
import TestArchiveTable
import WalletSQLite
import WalletStorage

/// One order in many versions (see TestOrderArchive) and a fresh store for each test.
public enum OrderFixtures {
    public static let now = TestOrderArchive.now

    public static func identifier(_ orderIdentifier: String = "ORDER-1") -> FullyQualifiedOrderIdentifier {
        FullyQualifiedOrderIdentifier(orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, orderIdentifier: orderIdentifier)
    }

    public static func archive(
        orderIdentifier: String = "ORDER-1", updatedAt: String = "2026-01-15T09:30:00Z", status: String = "open",
        signer: String = "order"
    ) throws -> Data {
        try TestOrderArchive.make(orderIdentifier: orderIdentifier, updatedAt: updatedAt, status: status, signer: signer)
    }

    /// A fresh embedded store in a temporary folder.
    public static func store(
        consent: any OrderConsentPrompt = AddWithoutAsking()
    ) throws -> (OrderStore, any OrderRepository, URL) {
        let path = try TemporaryDirectory.make("order-store").appendingPathComponent("orders.sqlite")
        let backend = try SQLiteBackend(path: path.path)
        return (try store(on: backend, consent: consent), backend.orders, path)
    }

    /// An order store on `backend`, verifying with the test PKI at ``now``.
    public static func store(
        on backend: any StorageBackend, consent: any OrderConsentPrompt = AddWithoutAsking()
    ) throws -> OrderStore {
        OrderStore(repository: backend.orders, verifier: try TestOrderArchive.verifier(), consent: consent, clock: { now })
    }
}

/// A consent prompt that answers from a script and remembers what it was asked.
public actor ScriptedConsent: OrderConsentPrompt {
    private var answers: [Bool]
    public private(set) var asked: [String] = []

    public init(_ answers: [Bool]) {
        self.answers = answers
    }

    public func shouldAdd(_ order: Order, report: VerificationReport) async -> Bool {
        asked.append(order.updatedAt.text)
        return answers.isEmpty ? false : answers.removeFirst()
    }
}
