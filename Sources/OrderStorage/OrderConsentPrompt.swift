import OrderPackage

/// Decides whether a verified order is added, as the person does on a device when Wallet shows
/// the add sheet. Declining makes ``OrderStore/saveOrder(signedArchive:)`` return `.cancelled`.
///
/// The prompt is only asked when saving would actually write: never for an order whose stored
/// version is newer, identical, conflicting or from another team.
public protocol OrderConsentPrompt: Sendable {
    func shouldAdd(_ order: Order, report: VerificationReport) async -> Bool
}

/// Adds every valid order without asking: the behaviour of a headless server.
public struct AddWithoutAsking: OrderConsentPrompt {
    public init() {}

    public func shouldAdd(_ order: Order, report: VerificationReport) async -> Bool {
        true
    }
}
