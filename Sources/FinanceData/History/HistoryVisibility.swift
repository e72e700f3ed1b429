import Foundation
import WalletCore

/// Whether a client sees a change-log record about a record that is no longer stored (a
/// deletion): written once, for a history read and for background delivery's planning, which
/// must agree.
///
/// An inserted or updated record is judged by the record itself, read with the grant applied. A
/// deleted one is judged by what the log kept of it: the client's own access changes (an account
/// withdrawn) always show; any other deletion only on a stream the client may read — an account
/// it shares, or that account's balances and transactions — and, for a balance or transaction,
/// only when the record's dates were within the grant (no date before the account's earliest
/// date). An account never shared and a record before its date are invisible, deleted or not.
public enum HistoryVisibility {
    public static func showsDeletion(
        of entity: UUID, on stream: HistoryStream, recordedFor client: ClientIdentifier?, earliestDate: Date?,
        to access: ClientAccess
    ) -> Bool {
        if client != nil { return client == access.client }
        switch stream {
        case .accounts:
            return access.shares(entity)
        case .balances(let account), .transactions(let account):
            guard let earliestDate else { return access.shares(account) }
            return access.allows(account, at: earliestDate)
        }
    }
}
