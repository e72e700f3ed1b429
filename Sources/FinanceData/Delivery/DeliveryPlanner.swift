import Foundation
import WalletCore

/// The rules of background delivery, apart from storage: which changes a client may hear
/// about, and when it is told.
///
/// A client is woken for a data type when the history it would read for that type changed:
/// grants and earliest dates applied as every read applies them, changes to accounts it cannot
/// see ignored. Within one window, a record inserted and deleted again is no change (as a
/// history batch coalesces it); a deletion on a shared account's stream is one (the client's
/// history reports it).
///
/// An endpoint is sent one delivery at a time, never when nothing changed, and the next only
/// when a changed type's frequency interval has passed since the last: a changed `hourly` type
/// may wake it an hour after the last delivery, a changed `weekly` one a week after. The
/// delivery then names every changed type — a launch happens anyway, and the client catches up
/// on all it names — and every type a failed delivery still owes.
public enum DeliveryPlanner {
    /// The types among `types` whose client-visible data `changes` touch.
    ///
    /// - Parameters:
    ///   - changes: change-log records, oldest first.
    ///   - access: the client's access now.
    ///   - dates: for each balance and transaction still stored that `changes` insert or update,
    ///     the dates its grant's earliest date applies to (a transaction's `transactionDate`; a
    ///     balance's `availableAsOf` and `bookedAsOf` where set). A record missing here is gone.
    public static func changedTypes(
        in changes: [LoggedChange], among types: Set<BackgroundDataType>, visibleTo access: ClientAccess,
        dates: [UUID: [Date]]
    ) -> Set<BackgroundDataType> {
        ChangeWindow(changes).changedTypes(among: types, visibleTo: access, dates: dates)
    }

    /// The types to deliver now from one endpoint's states (all of its types): when a changed
    /// type's interval has passed since the endpoint's last delivery (or there was none), every
    /// changed or owed type. Nil when none may wake it yet.
    public static func typesToDeliver(_ states: [DeliveryTypeState], at time: Date) -> [BackgroundDataType]? {
        let last = states.compactMap(\.lastPlannedAt).max()
        let wakes = states.contains { state in
            state.changed && (last.map { time.timeIntervalSince($0) >= state.frequency.interval } ?? true)
        }
        guard wakes else { return nil }
        return states.filter { $0.changed || $0.owed }.map(\.type).sorted()
    }
}
