import WalletPrimitives

/// The deployment's configuration (an environment variable) cannot be used; nothing starts
/// until it is fixed, since guessing could provide a data type the operator meant to withhold.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The variable, e.g. `ORDERS_DATA_TYPES`.
    public var variable: String
    /// The part of its value that is not accepted.
    public var value: String
    /// What the variable accepts.
    public var accepted: [String]

    public init(variable: String, value: String, accepted: [String]) {
        self.variable = variable
        self.value = value
        self.accepted = accepted
    }

    public var description: String {
        "\(variable): \(MessageText.quote(value)) is not accepted; use \(accepted.joined(separator: ", "))"
    }
}

extension ConfigurationError: WalletError {
    public var code: String { "configuration.invalid" }
    public var message: String { description }
    public var category: ErrorCategory { .invalidInput }
}
