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

    /// From `ORDERS_DATA_TYPES`: comma-separated names (`orders`, `financialData`), spaces and
    /// empty items ignored; both when the variable is unset, none when it is empty.
    ///
    /// - Throws: ``ConfigurationError`` for a name that is not a data type, so that a typo never
    ///   silently withholds (or provides) a data type.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> DataAvailability {
        let variable = "ORDERS_DATA_TYPES"
        guard let value = environment[variable] else { return DataAvailability() }
        var types: Set<DataType> = []
        for item in value.split(separator: ",") {
            let name = item.trimmingCharacters(in: .whitespaces)
            if name.isEmpty { continue }
            guard let type = DataType(rawValue: name) else {
                throw ConfigurationError(
                    variable: variable, value: name,
                    accepted: ["a comma-separated list of " + DataType.allCases.map(\.rawValue).sorted().joined(separator: ", ")])
            }
            types.insert(type)
        }
        return DataAvailability(available: types)
    }
}
