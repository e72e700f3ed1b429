import OrderPackage
import WalletCore
import WalletPrimitives

/// Why an order could not be saved. Each case has a stable ``code`` (documented in
/// docs/error-codes.md and printed by the CLI). That the store itself could not be used is
/// ``WalletCore/StorageError``, the library's one storage error, wherever it happens.
public enum OrderStoreError: Error, Sendable, CustomStringConvertible {
    /// The archive failed verification; the report says why. Nothing was written.
    case invalidArchive(VerificationReport)
    /// The stored version has the same `updatedAt` but different bytes: Apple requires
    /// `updatedAt` to increase with every change. Nothing was written.
    case conflictingVersion(FullyQualifiedOrderIdentifier, updatedAt: RFC3339Timestamp)
    /// The update is signed by another team than the stored version. Nothing was written.
    case signerChanged(FullyQualifiedOrderIdentifier, storedTeam: String, incomingTeam: String)
    /// A new device registration would pass a bound of ``RegistrationLimits``. Nothing was written.
    case registrationLimit(RegistrationLimitError)
    /// Orders are restricted for now (`WalletStore.setRestricted(.orders, true)`): nothing was
    /// read or changed. (A client's ``FinanceStore``-style API reports FinanceKit's
    /// `FinanceError.dataRestricted(.orders)` instead.)
    case dataRestricted
    /// A request with this `Idempotency-Key` was answered already (by a request that ran at the
    /// same time): nothing of this one was saved; its receipt is the answer.
    case requestAlreadyAnswered(idempotencyKey: String)
    /// The tracking event made a version of this order already (a second delivery of it, applied
    /// at the same time): nothing of this one was saved.
    case eventAlreadyApplied(eventID: String)

    public var code: String {
        switch self {
        case .invalidArchive: "store.invalidArchive"
        case .conflictingVersion: "store.conflictingVersion"
        case .signerChanged: "store.signerChanged"
        case .registrationLimit: "store.registrationLimit"
        case .dataRestricted: "store.dataRestricted"
        case .requestAlreadyAnswered: "store.requestAlreadyAnswered"
        case .eventAlreadyApplied: "store.eventAlreadyApplied"
        }
    }

    public var description: String {
        switch self {
        case .invalidArchive(let report):
            let codes = report.errorCodes.map(\.rawValue).joined(separator: ", ")
            return "the archive is invalid (\(codes))"
        case .conflictingVersion(let id, let updatedAt):
            return "\(id.clippedDescription) is already stored with updatedAt \(updatedAt.text) and different contents; "
                + "a changed order needs a later updatedAt"
        case .signerChanged(let id, let stored, let incoming):
            return "\(id.clippedDescription) is stored signed by team \(stored); an update signed by team \(incoming) is refused"
        case .requestAlreadyAnswered(let key):
            return "a request with the Idempotency-Key \(MessageText.quote(key)) was answered already; nothing was saved"
        case .eventAlreadyApplied(let eventID):
            return "the tracking event \(MessageText.quote(eventID)) made a version of this order already; nothing was saved"
        case .dataRestricted:
            return "access to orders is restricted for now; try again later"
        case .registrationLimit(.devicesPerOrder(let limit)):
            return "the order already has \(limit) registered devices, the most it may have; unregister one first"
        case .registrationLimit(.ordersPerDevice(let limit)):
            return "the device is already registered for \(limit) orders, the most it may be; unregister one first"
        }
    }
}

extension OrderStoreError: WalletError {
    public var message: String { description }

    /// For an invalid archive, where its first problem is.
    public var path: String? {
        if case .invalidArchive(let report) = self { return report.errors.first?.path }
        return nil
    }

    public var category: ErrorCategory {
        switch self {
        case .invalidArchive: .invalidInput
        case .conflictingVersion, .signerChanged, .registrationLimit, .requestAlreadyAnswered, .eventAlreadyApplied: .conflict
        case .dataRestricted: .restricted
        }
    }
}
