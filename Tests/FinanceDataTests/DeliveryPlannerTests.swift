import FinanceData
import Foundation
import Testing
import WalletCore

@Suite("DeliveryPlanner: what a client may hear about, and when")
struct DeliveryPlannerTests {
    static let shared = UUID()
    static let hidden = UUID()
    static let earliest = Date(timeIntervalSince1970: 1_800_000_000)
    static let access = ClientAccess(
        client: "com.example.budget", status: .authorized, accounts: [AccountGrant(accountID: shared, earliestDate: earliest)])

    static func change(
        _ sequence: Int64, _ stream: HistoryStream, _ id: UUID = UUID(), _ kind: FinanceChange.Kind = .insert,
        client: ClientIdentifier? = nil
    ) -> LoggedChange {
        LoggedChange(sequence: sequence, stream: stream, entityID: id, kind: kind, client: client)
    }

    static func changed(
        _ changes: [LoggedChange], dates: [UUID: [Date]] = [:], access: ClientAccess = access
    )
        -> Set<BackgroundDataType>
    {
        DeliveryPlanner.changedTypes(in: changes, among: Set(BackgroundDataType.allCases), visibleTo: access, dates: dates)
    }

    @Test("grants and earliest dates apply as every read applies them")
    func visibility() {
        let transaction = UUID()
        let after = [transaction: [Self.earliest.addingTimeInterval(1)]]
        let before = [transaction: [Self.earliest.addingTimeInterval(-1)]]
        #expect(
            Self.changed([Self.change(1, .transactions(accountID: Self.shared), transaction)], dates: after) == [.transactions])
        #expect(Self.changed([Self.change(1, .transactions(accountID: Self.shared), transaction)], dates: before).isEmpty)
        #expect(Self.changed([Self.change(1, .transactions(accountID: Self.hidden), transaction)], dates: after).isEmpty)
        // Gone from the store by now: its own deletion record tells, not the insert.
        #expect(Self.changed([Self.change(1, .transactions(accountID: Self.shared), transaction)]).isEmpty)
        // A balance: every as-of date must pass.
        let balance = UUID()
        let mixed = [balance: [Self.earliest.addingTimeInterval(5), Self.earliest.addingTimeInterval(-5)]]
        #expect(Self.changed([Self.change(1, .balances(accountID: Self.shared), balance, .update)], dates: mixed).isEmpty)
        #expect(
            Self.changed(
                [Self.change(1, .balances(accountID: Self.shared), balance, .update)],
                dates: [balance: [Self.earliest]]) == [.accountBalances])
    }

    @Test("deletions on a shared stream count; inserted and deleted within the window is nothing")
    func coalescing() {
        let id = UUID()
        let stream = HistoryStream.transactions(accountID: Self.shared)
        #expect(Self.changed([Self.change(1, stream, id, .delete)]) == [.transactions])
        #expect(Self.changed([Self.change(1, stream, id, .insert), Self.change(2, stream, id, .delete)]).isEmpty)
        #expect(
            Self.changed([Self.change(1, stream, id, .update), Self.change(2, stream, id, .delete)]) == [.transactions])
    }

    @Test("accounts: shared ones for everyone, access changes for their client alone; nothing unless authorized")
    func accounts() {
        #expect(Self.changed([Self.change(1, .accounts, Self.shared, .update)]) == [.accounts])
        #expect(Self.changed([Self.change(1, .accounts, Self.hidden, .update)]).isEmpty)
        #expect(Self.changed([Self.change(1, .accounts, Self.hidden, .insert, client: "com.example.budget")]) == [.accounts])
        #expect(Self.changed([Self.change(1, .accounts, Self.hidden, .insert, client: "com.example.other")]).isEmpty)
        var denied = Self.access
        denied.status = .denied
        #expect(Self.changed([Self.change(1, .accounts, Self.shared, .update)], access: denied).isEmpty)
    }

    @Test("an endpoint is woken when a changed type's interval passed since its last delivery; all changed and owed types go")
    func schedule() {
        let last = Date(timeIntervalSince1970: 1_000)
        let states = [
            DeliveryTypeState(type: .accounts, frequency: .weekly, scannedThrough: 9, changed: true, lastPlannedAt: last),
            DeliveryTypeState(type: .accountBalances, frequency: .daily, scannedThrough: 9, owed: true, lastPlannedAt: last),
            DeliveryTypeState(type: .transactions, frequency: .hourly, scannedThrough: 9, changed: false, lastPlannedAt: last),
        ]
        #expect(DeliveryPlanner.typesToDeliver(states, at: last.addingTimeInterval(86_400 * 6)) == nil)
        #expect(
            DeliveryPlanner.typesToDeliver(states, at: last.addingTimeInterval(86_400 * 7))
                == [.accounts, .accountBalances])
        var hourly = states
        hourly[2].changed = true
        #expect(DeliveryPlanner.typesToDeliver(hourly, at: last.addingTimeInterval(3_599)) == nil)
        #expect(
            DeliveryPlanner.typesToDeliver(hourly, at: last.addingTimeInterval(3_600)) == [
                .accounts, .accountBalances, .transactions,
            ])
        // Never delivered: at once; owed alone wakes nobody.
        let fresh = [DeliveryTypeState(type: .transactions, frequency: .weekly, scannedThrough: 0, changed: true)]
        #expect(DeliveryPlanner.typesToDeliver(fresh, at: last) == [.transactions])
        let owedOnly = [DeliveryTypeState(type: .transactions, frequency: .hourly, scannedThrough: 0, owed: true)]
        #expect(DeliveryPlanner.typesToDeliver(owedOnly, at: last) == nil)
    }

    @Test("a webhook URL: https with a host, no credentials or fragment, printable ASCII, 2,048 bytes at most")
    func urls() throws {
        let url = try WebhookURL("https://Hooks.Example:8443/wallet?x=1")
        #expect(url.host == "hooks.example" && url.port == 8443 && url.isSecure)
        #expect(try WebhookURL("http://[::1]/hook").host == "::1")
        #expect(try WebhookURL("http://127.0.0.1/hook").port == 80)
        let refused = [
            "", "hooks.example/wallet", "ftp://hooks.example/", "https://user:pass@hooks.example/", "https://hooks.example/#x",
            "https:///path", "https://hooks.example/ space", "https://hooks.example/\u{7}", "https://hooks.example/é",
            "https://hooks.example/" + String(repeating: "a", count: 2_048),
        ]
        for text in refused {
            #expect(throws: BackgroundDeliveryError.self, "\(text.prefix(40))") { try WebhookURL(text) }
        }
    }
}
