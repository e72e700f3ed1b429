import OrderStorage
import WalletCore
import WalletPrimitives

extension StorableText {
    /// Whether both parts of the identifier are stored exactly: a lookup for one that is not finds
    /// nothing, since no stored key holds U+0000.
    package static func isExact(_ identifier: FullyQualifiedOrderIdentifier) -> Bool {
        isExact(identifier.orderTypeIdentifier) && isExact(identifier.orderIdentifier)
    }

    /// Refuses to save an order whose identifier could not be stored exactly.
    package static func requireExact(_ identifier: FullyQualifiedOrderIdentifier) throws(StorageError) {
        guard isExact(identifier) else {
            throw StorageError(
                reason: "an identifier containing U+0000 cannot be stored exactly (\(identifier.clippedDescription))")
        }
    }
}

extension RFC3339Timestamp {
    /// A timestamp as a backend stored it (exactly as order.json wrote it).
    package init(stored text: String) throws(StorageError) {
        guard let timestamp = RFC3339Timestamp(text) else {
            throw StorageError(reason: "the store holds an unreadable timestamp \(MessageText.quote(text))")
        }
        self = timestamp
    }
}

extension StorageError {
    /// Any failure of a backend's repositories that is not the library's own refusal: the
    /// storage error itself, or one saying what failed.
    package init(backendFailure error: any Error) {
        self = error as? StorageError ?? StorageError(reason: (error as? any WalletError)?.message ?? "\(error)")
    }
}
