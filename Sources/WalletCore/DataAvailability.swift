import Foundation

/// Which data types this deployment provides: configuration, constant for the life of the
/// process (FinanceKit's `isDataAvailable`).
///
/// ```swift
/// let availability = DataAvailability(available: [.orders])          // an orders-only deployment
/// let fromEnvironment = DataAvailability.fromEnvironment()            // ORDERS_DATA_TYPES=orders,financialData
/// ```
public struct DataAvailability: Hashable, Sendable {
    public let availableDataTypes: Set<DataType>

    public init(available: Set<DataType> = Set(DataType.allCases)) {
        availableDataTypes = available
    }

    public func isDataAvailable(_ type: DataType) -> Bool {
        availableDataTypes.contains(type)
    }

    /// From `ORDERS_DATA_TYPES` (comma-separated `orders`, `financialData`); both when unset.
    /// Unknown names are ignored.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> DataAvailability
    {
        guard let value = environment["ORDERS_DATA_TYPES"] else { return DataAvailability() }
        let types = value.split(separator: ",").compactMap { DataType(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
        return DataAvailability(available: Set(types))
    }
}
