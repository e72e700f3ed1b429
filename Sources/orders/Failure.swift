import ArgumentParser
import Foundation
import WalletOrders

/// How a failure from the library is told to the user: one line, and the documented exit status.
enum Failure {
    static func report(_ error: any Error) -> (message: String, status: Int32)? {
        switch error {
        case let error as FinanceAccessError:
            switch error {
            case .notAuthorized, .notEntitled: return (error.description, ExitStatus.notAuthorized)
            case .dataTypeUnavailable: return (error.description, ExitStatus.unavailable)
            case .unknownAccount: return (error.description, ExitStatus.invalid)
            }
        case let error as FinanceError:
            switch error {
            case .dataRestricted: return (error.errorDescription ?? "restricted", ExitStatus.restricted)
            case .historyTokenInvalid:
                return ("\(error.errorDescription ?? "invalid token") (remove the token file to start over)", ExitStatus.invalid)
            case .unknown: return ("an unknown error occurred", ExitStatus.usageOrIO)
            }
        case let error as StorageError:
            return ("\(error.code): \(error.reason)", ExitStatus.usageOrIO)
        case let error as OrderStoreError:
            switch error {
            case .unavailable(let reason), .corrupt(let reason): return ("\(error.code): \(reason)", ExitStatus.usageOrIO)
            default: return ("\(error.code): \(error.description)", ExitStatus.invalid)
            }
        case let error as FinanceDataError:
            return ("\(error.code): \(error.description)", ExitStatus.invalid)
        default:
            return nil
        }
    }
}
