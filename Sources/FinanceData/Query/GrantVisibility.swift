import Foundation
import WalletCore
import WalletPrimitives

/// What a client may see, as stored filters every backend applies to every read: the accounts
/// shared with it and, per account, nothing dated before the earliest date of its grant.
package enum GrantVisibility {
    /// Accounts shared with the client.
    package static func accounts(_ access: ClientAccess) -> StoredFilter {
        .any(grants(access).map { .compare(.column("id"), .equal, .text($0.accountID.uuidString)) })
    }

    /// Transactions of shared accounts, not dated (`transactionDate`) before the earliest date.
    ///
    /// `lookup` marks the columns as not to drive the search: when the caller's own condition
    /// selects the rows (ids, or one account's id range in a catch-up), that condition must, not a
    /// scan of a whole account by date.
    package static func transactions(_ access: ClientAccess, lookup: Bool = false) -> StoredFilter {
        perGrant(access, lookup: lookup) { earliest in
            [.compare(.column("transactionDate", avoidingIndex: lookup), .greaterThanOrEqual, earliest)]
        }
    }

    /// Balances of shared accounts, no part of which is as of before the earliest date.
    /// `lookup` as for ``transactions(_:lookup:)``.
    package static func balances(_ access: ClientAccess, lookup: Bool = false) -> StoredFilter {
        perGrant(access, lookup: lookup) { earliest in
            ["availableAsOf", "bookedAsOf"].map { column in
                .any([.equals(.column(column), nil), .compare(.column(column), .greaterThanOrEqual, earliest)])
            }
        }
    }

    /// For each grant: its account, and what `since` (given the earliest date, in microseconds)
    /// adds when the grant has one.
    private static func perGrant(
        _ access: ClientAccess, lookup: Bool, since: (StoredValue) -> [StoredFilter]
    ) -> StoredFilter {
        .any(
            grants(access).map { grant in
                let account = StoredFilter.compare(
                    .column("accountID", avoidingIndex: lookup), .equal, .text(grant.accountID.uuidString))
                guard let earliest = grant.earliestDate else { return account }
                return .all([account] + since(.integer(Microseconds.since1970(earliest))))
            })
    }

    private static func grants(_ access: ClientAccess) -> [AccountGrant] {
        guard access.status == .authorized else { return [] }
        return access.accounts.values.sorted { $0.accountID.uuidString < $1.accountID.uuidString }
    }
}
