import HTTPTypes
import WalletPrimitives

/// The one table from library errors to HTTP statuses, for every route of the service (the
/// CLI's equivalent is its exit-status table).
public enum HTTPStatusTable {
    /// The status of each category.
    public static func status(of category: ErrorCategory) -> HTTPResponse.Status {
        switch category {
        case .invalidInput: .badRequest
        case .notFound: .notFound
        case .conflict: .conflict
        case .unauthorized: .forbidden
        // Restriction is temporary and lifted by the operator: try again later.
        case .restricted: .serviceUnavailable
        // This deployment does not provide the data type at all.
        case .unavailable: .notImplemented
        // The store is busy, unreachable or damaged: nothing the client did wrong.
        case .storage: .serviceUnavailable
        }
    }

    /// Codes whose documented status is not their category's.
    public static let statusByCode: [String: HTTPResponse.Status] = [
        // Not authenticated at all (no or wrong token or key), as opposed to authenticated but
        // not allowed (403).
        "webService.unauthorized": .unauthorized,
        "api.unauthenticated": .unauthorized,
        // Well-formed HTTP carrying an archive that fails verification.
        "store.invalidArchive": .unprocessableContent,
        "request.bodyTooLarge": .contentTooLarge,
        "request.unsupportedMediaType": .unsupportedMediaType,
    ]

    public static func status(of error: any WalletError) -> HTTPResponse.Status {
        statusByCode[error.code] ?? status(of: error.category)
    }
}
