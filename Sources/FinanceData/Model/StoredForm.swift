import Foundation
import WalletPrimitives

// Models as every backend keeps them: dates in whole microseconds since 1970, so that what is
// read back equals what was stored and an unchanged record is recognised as unchanged.

extension Transaction {
    /// The transaction with its dates as the store keeps them (whole microseconds).
    package var stored: Transaction {
        var copy = self
        copy.transactionDate = Microseconds.date(Microseconds.since1970(transactionDate))
        copy.postedDate = postedDate.map { Microseconds.date(Microseconds.since1970($0)) }
        return copy
    }
}

extension Balance {
    package var stored: Balance {
        var copy = self
        copy.asOfDate = Microseconds.date(Microseconds.since1970(asOfDate))
        return copy
    }
}

extension AccountBalance {
    package var stored: AccountBalance {
        guard let current = CurrentBalance(available: available?.stored, booked: booked?.stored) else { return self }
        return AccountBalance(id: id, accountID: accountID, currentBalance: current)
    }
}

extension Account {
    package var stored: Account {
        func stored(_ date: Date?) -> Date? { date.map { Microseconds.date(Microseconds.since1970($0)) } }
        switch self {
        case .asset(var account):
            account.openingDate = stored(account.openingDate)
            return .asset(account)
        case .liability(var account):
            account.openingDate = stored(account.openingDate)
            account.creditInformation.nextPaymentDueDate = stored(account.creditInformation.nextPaymentDueDate)
            return .liability(account)
        }
    }
}
