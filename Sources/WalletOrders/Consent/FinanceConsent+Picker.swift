import FinanceData
import Foundation
import WalletConsent
import WalletCore

extension FinanceConsent {
    /// Share in the transaction picker (FinanceKitUI's `TransactionPicker`): a single-use code for
    /// exactly these transactions, which the client redeems once with ``redeemPick(_:)``. No
    /// authorization is needed or given: the client gains no other access, and the selection
    /// leaves the store when the code is redeemed or expires.
    ///
    /// - Throws: ``WalletConsent/ConsentError/invalidRequest(_:)`` for an empty selection, one
    ///   larger than the policy allows, or an id that is not one of the owner's transactions.
    public func sharePicked(_ transactions: [UUID], answering request: AuthorizationRequest) async throws -> AuthorizationAnswer {
        try await sharePicked(transactions, answering: request, checked: false)
    }

    func sharePicked(
        _ transactions: [UUID], answering request: AuthorizationRequest, checked: Bool
    ) async throws -> AuthorizationAnswer {
        var seen = Set<UUID>()
        let selection = transactions.filter { seen.insert($0).inserted }
        guard !selection.isEmpty, selection.count <= policy.maximumPickedTransactions else {
            throw ConsentError.invalidRequest("pick 1–\(policy.maximumPickedTransactions) transactions")
        }
        if !checked { try await control.checkUsable(.financialData, for: "sharePicked") }
        let found = try await finance.transactions(ids: selection, visibleTo: try await ownerAccess())
        guard found.count == selection.count else { throw ConsentError.invalidRequest("a picked transaction does not exist") }
        logger.info(
            "transactions picked", metadata: ["client": .string(request.target.clientID.rawValue), "count": "\(selection.count)"])
        return try await codeAnswer(to: request, purpose: .pick, selection: selection)
    }

    /// The picked transactions, for the one redemption of the picker's code, in the order they
    /// were picked (a transaction deleted meanwhile is left out). The same checks as
    /// ``exchange(_:)``; afterwards nothing of the selection remains.
    public func redeemPick(_ redemption: CodeRedemption) async throws -> [Transaction] {
        try await control.checkUsable(.financialData, for: "redeemPick")
        let code = try await redeem(redemption, purpose: .pick)
        let found = try await finance.transactions(ids: code.selection, visibleTo: try await ownerAccess())
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return code.selection.compactMap { byID[$0] }
    }
}
