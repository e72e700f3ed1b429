import Foundation
import Logging
import Synchronization
import TestArchiveTable
import WalletOrders
import WalletPrimitives

/// An authorization prompt that answers from a script and counts questions.
actor ScriptedAuthorizationPrompt: AuthorizationPrompt {
    private var answers: [AuthorizationDecision]
    private(set) var asked = 0
    private(set) var lastChoices: [AccountChoice] = []

    init(_ answers: [AuthorizationDecision]) {
        self.answers = answers
    }

    func requestAuthorization(for client: ClientIdentifier, accounts: [AccountChoice]) async -> AuthorizationDecision {
        asked += 1
        lastChoices = accounts
        return answers.isEmpty ? .denied : answers.removeFirst()
    }
}

/// Captures log messages.
struct CapturingLogHandler: LogHandler {
    let messages: LogMessages
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        messages.append(event.level, event.message.description)
    }
}

final class LogMessages: Sendable {
    private let entries = Mutex<[(Logger.Level, String)]>([])
    func append(_ level: Logger.Level, _ message: String) { entries.withLock { $0.append((level, message)) } }
    var all: [(Logger.Level, String)] { entries.withLock { $0 } }
}

enum WalletFixtures {
    // The sample feed's account ids, spelled as bytes so no unwrap is needed.
    static let checking = UUID(
        uuid: (0x6F, 0x2A, 0x3C, 0x8E, 0x1B, 0x4D, 0x4E, 0x5F, 0x9A, 0x7B, 0x0C, 0x1D, 0x2E, 0x3F, 0x4A, 0x5B))
    static let card = UUID(
        uuid: (0x9C, 0x8B, 0x7A, 0x6F, 0x5E, 0x4D, 0x4C, 0x3B, 0x8A, 0x29, 0x1F, 0x0E, 0x9D, 0x8C, 0x7B, 0x6A))
    static let client: ClientIdentifier = "com.example.budget"

    static var samples: URL { TestArchiveTable.packageRoot.appendingPathComponent("Samples") }

    static func feed(_ name: String = "finance-feed.json") throws -> Data {
        try Data(contentsOf: samples.appendingPathComponent(name))
    }

    static func path() -> String {
        TemporaryDirectory.root.appendingPathComponent("wallet-\(UUID().uuidString)/store.sqlite").path
    }

    static func wallet(
        at path: String = path(), availability: DataAvailability = DataAvailability(),
        prompt: any AuthorizationPrompt = DenyingAuthorizationPrompt(), clock: TestClock = TestClock(),
        history: HistoryConfiguration = HistoryConfiguration(batchSize: 500, pollInterval: .milliseconds(20)),
        logs: LogMessages = LogMessages()
    ) throws -> WalletStore {
        try WalletStore(
            path: path,
            configuration: configuration(availability: availability, prompt: prompt, clock: clock, history: history, logs: logs))
    }

    /// The tests' configuration: the test PKI, a test clock, fast history polling.
    static func configuration(
        availability: DataAvailability = DataAvailability(), prompt: any AuthorizationPrompt = DenyingAuthorizationPrompt(),
        clock: TestClock = TestClock(),
        history: HistoryConfiguration = HistoryConfiguration(batchSize: 500, pollInterval: .milliseconds(20)),
        logs: LogMessages = LogMessages()
    ) throws -> WalletConfiguration {
        let logger = Logger(label: "tests") { _ in CapturingLogHandler(messages: logs) }
        let verifier = OrderVerifier(trustStore: try TestArchiveTable.trustStore(), clock: { TestOrderArchive.now })
        return WalletConfiguration(
            availability: availability, verifier: verifier, authorizationPrompt: prompt, history: history, clock: { clock.now() },
            logger: logger)
    }

    /// A wallet with the sample feed imported and the client authorized for both accounts.
    static func authorizedWallet(
        at path: String = path(), clock: TestClock = TestClock(), earliest: Date? = nil
    ) async throws -> WalletStore {
        let wallet = try wallet(at: path, clock: clock)
        try await wallet.importFeed(feed())
        try await wallet.grant(
            [AccountGrant(accountID: checking, earliestDate: earliest), AccountGrant(accountID: card)], to: client)
        return wallet
    }

    static func date(_ text: String) -> Date {
        RFC3339Timestamp(text)?.date ?? Date.distantPast
    }
}
