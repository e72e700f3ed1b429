import FinanceData
import Foundation
import WalletConsent
import WalletCore

/// One owner page's work on an authorization request — the consent sheet, its account picker,
/// a decision, the transaction picker: the client found and financial data checked available and
/// unrestricted once, for every step the page takes. The steps are those of ``FinanceConsent``
/// without their own check; a page makes a new call per request, so nothing outlives the request
/// it was checked for.
///
/// ```swift
/// let call = try await wallet.consent.call(for: target)
/// let accounts = try await call.ownerAccounts()
/// let answer = try await call.share(grants, answering: request)
/// ```
public struct AuthorizationCall: Sendable {
    /// The registered, unrevoked client the request names, its redirect URI one of its own.
    public let client: RegisteredClient
    let consent: FinanceConsent

    /// ``FinanceConsent/cachedDecision(on:from:)`` for this call's client.
    public func cachedDecision(on request: AuthorizationRequest) async throws -> FinanceConsent.CachedDecision {
        try await consent.cachedDecision(on: request, from: client)
    }

    /// ``FinanceConsent/ownerAccounts()``.
    public func ownerAccounts() async throws -> [Account] {
        try await consent.ownerAccountsChecked()
    }

    /// ``FinanceConsent/ownerTransactions(_:)``.
    public func ownerTransactions(_ query: TransactionQuery) async throws -> [Transaction] {
        try await consent.ownerTransactionsChecked(query)
    }

    /// ``FinanceConsent/share(_:answering:)``.
    public func share(_ accounts: [AccountGrant], answering request: AuthorizationRequest) async throws -> AuthorizationAnswer {
        try await consent.shareChecked(accounts, answering: request)
    }

    /// ``FinanceConsent/deny(answering:)``.
    public func deny(answering request: AuthorizationRequest) async throws -> AuthorizationAnswer {
        try await consent.denyChecked(answering: request)
    }

    /// ``FinanceConsent/continueSharing(answering:)``.
    public func continueSharing(answering request: AuthorizationRequest) async throws -> AuthorizationAnswer {
        try await consent.continueSharingChecked(answering: request)
    }

    /// ``FinanceConsent/sharePicked(_:answering:)``.
    public func sharePicked(_ transactions: [UUID], answering request: AuthorizationRequest) async throws -> AuthorizationAnswer {
        try await consent.sharePicked(transactions, answering: request, checked: true)
    }
}

extension FinanceConsent {
    /// Begins an owner page's work on a request naming `target`: financial data checked
    /// available and unrestricted (one read), then the client as ``client(for:)`` finds it.
    ///
    /// - Throws: `dataTypeUnavailable`, `dataRestricted`, or
    ///   ``WalletConsent/ConsentError/unknownClient`` (shown to the person, never redirected).
    public func call(for target: AuthorizationRequest.Target) async throws -> AuthorizationCall {
        try await control.checkUsable(.financialData, for: "authorize")
        return AuthorizationCall(client: try await registeredClient(for: target), consent: self)
    }
}
