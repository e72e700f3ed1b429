import OrderPackage
import WalletCore
import WalletPrimitives

/// Why an order could not be saved or the store could not be used. Each case has a stable
/// ``code`` (documented in docs/error-codes.md and printed by the CLI).
public enum OrderStoreError: Error, Sendable, CustomStringConvertible {
    /// The archive failed verification; the report says why. Nothing was written.
    case invalidArchive(VerificationReport)
    /// The stored version has the same `updatedAt` but different bytes: Apple requires
    /// `updatedAt` to increase with every change. Nothing was written.
    case conflictingVersion(FullyQualifiedOrderIdentifier, updatedAt: RFC3339Timestamp)
    /// The update is signed by another team than the stored version. Nothing was written.
    case signerChanged(FullyQualifiedOrderIdentifier, storedTeam: String, incomingTeam: String)
    /// The store could not be opened, read or written (I/O, permissions, a damaged file, or
    /// another process holding the write lock past the busy timeout).
    case unavailable(reason: String)
    /// The store file is damaged (SQLite found corruption); `reason` says what to do.
    case corrupt(reason: String)
    /// A new device registration would pass a bound of ``RegistrationLimits``. Nothing was written.
    case registrationLimit(RegistrationLimitError)

    /// The store error for a ``WalletCore/StorageError``.
    public init(_ error: StorageError) {
        self = error.isCorrupt ? .corrupt(reason: error.reason) : .unavailable(reason: error.reason)
    }

    public var code: String {
        switch self {
        case .invalidArchive: "store.invalidArchive"
        case .conflictingVersion: "store.conflictingVersion"
        case .signerChanged: "store.signerChanged"
        case .unavailable: "store.unavailable"
        case .corrupt: "store.corrupt"
        case .registrationLimit: "store.registrationLimit"
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
        case .unavailable(let reason):
            return "the store is unavailable: \(reason)"
        case .corrupt(let reason):
            return "the store is damaged: \(reason)"
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
        case .conflictingVersion, .signerChanged, .registrationLimit: .conflict
        case .unavailable, .corrupt: .storage
        }
    }
}
