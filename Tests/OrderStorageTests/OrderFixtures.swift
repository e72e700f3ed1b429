import Foundation
import OrderPackage
import OrderStorage
import TestArchiveTable

/// One order in many versions (see TestOrderArchive) and a fresh store for each test.
enum OrderFixtures {
    static let now = TestOrderArchive.now

    static func identifier(_ orderIdentifier: String = "ORDER-1") -> FullyQualifiedOrderIdentifier {
        FullyQualifiedOrderIdentifier(orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, orderIdentifier: orderIdentifier)
    }

    static func archive(
        orderIdentifier: String = "ORDER-1", updatedAt: String = "2026-01-15T09:30:00Z", status: String = "open",
        signer: String = "order"
    ) throws -> Data {
        try TestOrderArchive.make(orderIdentifier: orderIdentifier, updatedAt: updatedAt, status: status, signer: signer)
    }

    /// A fresh store in a temporary folder.
    static func store(consent: any OrderConsentPrompt = AddWithoutAsking()) throws -> (OrderStore, SQLiteOrderRepository, URL) {
        let path = try TestOrderArchive.temporaryDirectory("order-store").appendingPathComponent("orders.sqlite")
        let repository = try SQLiteOrderRepository(path: path.path)
        let store = OrderStore(
            repository: repository, verifier: try TestOrderArchive.verifier(), consent: consent, clock: { now })
        return (store, repository, path)
    }
}

/// A consent prompt that answers from a script and remembers what it was asked.
actor ScriptedConsent: OrderConsentPrompt {
    private var answers: [Bool]
    private(set) var asked: [String] = []

    init(_ answers: [Bool]) {
        self.answers = answers
    }

    func shouldAdd(_ order: Order, report: VerificationReport) async -> Bool {
        asked.append(order.updatedAt.text)
        return answers.isEmpty ? false : answers.removeFirst()
    }
}
