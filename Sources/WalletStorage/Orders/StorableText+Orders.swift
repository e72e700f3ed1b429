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
    package static func requireExact(_ identifier: FullyQualifiedOrderIdentifier) throws(OrderStoreError) {
        guard isExact(identifier) else {
            throw .unavailable(
                reason: "an identifier containing U+0000 cannot be stored exactly (\(identifier.clippedDescription))")
        }
    }
}

extension RFC3339Timestamp {
    /// A timestamp as a backend stored it (exactly as order.json wrote it).
    package init(stored text: String) throws(OrderStoreError) {
        guard let timestamp = RFC3339Timestamp(text) else {
            throw OrderStoreError.unavailable(reason: "the store holds an unreadable timestamp \(MessageText.quote(text))")
        }
        self = timestamp
    }
}

extension OrderStoreError {
    /// Any failure of a backend's order repositories, as their protocols report it: the
    /// library's own errors as they are, storage errors as `store.unavailable`/`store.corrupt`.
    package init(backendFailure error: any Error) {
        switch error {
        case let error as OrderStoreError: self = error
        case let error as StorageError: self.init(error)
        default: self = .unavailable(reason: (error as? any WalletError)?.message ?? "\(error)")
        }
    }
}

extension StorageError {
    /// Any failure of a backend's access repositories, as their protocols report it.
    package init(backendFailure error: any Error) {
        self = error as? StorageError ?? StorageError(reason: (error as? any WalletError)?.message ?? "\(error)")
    }
}
