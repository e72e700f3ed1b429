import Foundation
import Logging
import Testing
import WalletCore

@Suite("The access core: availability, grants, the one storage error")
struct AccessCoreTests {
    @Test("ORDERS_DATA_TYPES: both when unset, none when empty, a typo refused")
    func availabilityFromEnvironment() throws {
        #expect(try DataAvailability.fromEnvironment([:]).isDataAvailable(.orders))
        #expect(try DataAvailability.fromEnvironment([:]).isDataAvailable(.financialData))
        let empty = try DataAvailability.fromEnvironment(["ORDERS_DATA_TYPES": ""])
        #expect(!empty.isDataAvailable(.orders) && !empty.isDataAvailable(.financialData))
        let orders = try DataAvailability.fromEnvironment(["ORDERS_DATA_TYPES": " orders , "])
        #expect(orders.isDataAvailable(.orders) && !orders.isDataAvailable(.financialData))
        #expect(throws: ConfigurationError.self) { try DataAvailability.fromEnvironment(["ORDERS_DATA_TYPES": "order"]) }
    }

    @Test("a grant allows its account from its earliest date, and only while authorized")
    func grants() throws {
        let account = UUID()
        let earliest = Date(timeIntervalSince1970: 1_780_000_000)
        var access = ClientAccess(
            client: "com.example.budget", status: .authorized,
            accounts: [AccountGrant(accountID: account, earliestDate: earliest)])
        #expect(access.allows(account, at: earliest))
        #expect(!access.allows(account, at: earliest.addingTimeInterval(-1)))
        #expect(!access.allows(UUID(), at: earliest))
        access.status = .denied
        #expect(!access.allows(account, at: earliest) && !access.shares(account))
    }

    @Test("storage errors: one type, two codes, the storage category")
    func storageError() {
        let unavailable = StorageError(reason: "disk full")
        let corrupt = StorageError(reason: "run orders doctor", isCorrupt: true)
        #expect(unavailable.code == "store.unavailable" && corrupt.code == "store.corrupt")
        #expect(unavailable.category == .storage && corrupt.category == .storage)
        #expect(unavailable.description == "the store is unavailable: disk full")
    }
}
