/// The kinds of data a deployment can provide (FinanceKit's `FinanceStore.DataType`).
public enum DataType: String, CaseIterable, Hashable, Sendable, Codable {
    case financialData
    case orders
}
