import Foundation
import OrderPackage
import WalletConsent
import WalletCore

/// Where the person's browser goes after the consent sheet or the picker: the client's redirect
/// URI with the answer added (RFC 6749 §4.1.2).
public struct AuthorizationAnswer: Sendable, Hashable {
    /// What the client learns, besides `state`.
    public enum Outcome: Sendable, Hashable {
        /// `code=…`: authorized (the sheet), or transactions picked (the picker).
        case code
        /// `error=access_denied&authorization_status=denied`: Don't Allow (cached).
        case denied
        /// `error=access_denied&authorization_status=notDetermined`: Cancel (nothing recorded).
        case cancelled
        /// `error=invalid_request&error_description=…`: a malformed request.
        case invalidRequest
    }

    public var outcome: Outcome
    /// The redirect URI with the parameters added.
    public var location: String

    public init(outcome: Outcome, location: String) {
        self.outcome = outcome
        self.location = location
    }
}

extension FinanceConsent {
    /// The registered, unrevoked client a request names, if the redirect URI is exactly one of
    /// its own; otherwise ``WalletConsent/ConsentError/unknownClient``, which must be shown to the
    /// person and never redirected.
    public func client(for target: AuthorizationRequest.Target) async throws -> RegisteredClient {
        try await control.checkUsable(.financialData, for: "authorize")
        return try await registeredClient(for: target)
    }

    /// ``client(for:)`` without the availability and restriction check, for a caller that made it.
    func registeredClient(for target: AuthorizationRequest.Target) async throws -> RegisteredClient {
        guard let client = try await repository.client(target.clientID)?.client, client.revokedAt == nil,
            client.allowsRedirect(to: target.redirectURI)
        else { throw ConsentError.unknownClient }
        return client
    }

    /// The decision already cached for the client: `notDetermined` means the sheet must be shown.
    public func authorizationStatus(of client: ClientIdentifier) async throws -> AuthorizationStatus {
        try await access.access(for: client).status
    }

    /// How a request from `client` is answered, given what the owner decided before.
    public enum CachedDecision: Sendable, Hashable {
        /// At once, without a page: `denied` (`access_denied`, which gives nothing away), or
        /// `authorized` for a confidential client (a code, useless without its secret).
        case answered(AuthorizationAnswer)
        /// `authorized`, for a public client: the owner confirms with one tap before a code is
        /// issued (``continueSharing(answering:)``).
        case confirm
        /// `notDetermined`: the consent sheet.
        case ask
    }

    /// What the signed-in owner's browser gets for `request` from `client`, FinanceKit's cached
    /// answer to `requestAuthorization()` — except that a public client never gets a code without
    /// a click: nothing proves who a public client is (its redirect URI may be claimed by any app
    /// on the device, or a loopback port by any process), so RFC 8252 §8.6 treats its request as
    /// if nothing had been approved. A stranger who knows its id and redirect URI, and makes the
    /// owner's browser ask, would otherwise receive a code for the owner's accounts.
    public func cachedDecision(
        on request: AuthorizationRequest, from client: RegisteredClient
    ) async throws -> CachedDecision {
        switch try await authorizationStatus(of: request.target.clientID) {
        case .notDetermined: return .ask
        case .denied: return .answered(answer(.denied, to: request))
        case .authorized:
            if client.isPublic { return .confirm }
            return .answered(try await codeAnswer(to: request, purpose: .authorization))
        }
    }

    /// Continue (the confirmation of an authorized public client): a code if the client is still
    /// authorized; otherwise the answer its status gives (`denied`, or `notDetermined` as a
    /// cancellation).
    public func continueSharing(answering request: AuthorizationRequest) async throws -> AuthorizationAnswer {
        try await control.checkUsable(.financialData, for: "requestAuthorization")
        return try await continueSharingChecked(answering: request)
    }

    func continueSharingChecked(answering request: AuthorizationRequest) async throws -> AuthorizationAnswer {
        switch try await authorizationStatus(of: request.target.clientID) {
        case .authorized: return try await codeAnswer(to: request, purpose: .authorization)
        case .denied: return answer(.denied, to: request)
        case .notDetermined: return answer(.cancelled, to: request)
        }
    }

    /// Share: records `authorized` with these accounts — only if the client is still
    /// `notDetermined`, as `requestAuthorization()` caches its first answer — and answers with a
    /// code; when another decision came first, answers with that one.
    public func share(_ accounts: [AccountGrant], answering request: AuthorizationRequest) async throws -> AuthorizationAnswer {
        try await control.checkUsable(.financialData, for: "requestAuthorization")
        return try await shareChecked(accounts, answering: request)
    }

    func shareChecked(_ accounts: [AccountGrant], answering request: AuthorizationRequest) async throws -> AuthorizationAnswer {
        let decided = try await access.recordDecision(.authorized(accounts), for: request.target.clientID, at: clock())
        logger.info(
            "authorization decided",
            metadata: ["client": .string(request.target.clientID.rawValue), "status": .string(decided.status.rawValue)])
        return decided.status == .authorized
            ? try await codeAnswer(to: request, purpose: .authorization) : answer(.denied, to: request)
    }

    /// Don't Allow: records `denied` (cached) unless another decision came first.
    public func deny(answering request: AuthorizationRequest) async throws -> AuthorizationAnswer {
        try await control.checkUsable(.financialData, for: "requestAuthorization")
        return try await denyChecked(answering: request)
    }

    func denyChecked(answering request: AuthorizationRequest) async throws -> AuthorizationAnswer {
        let decided = try await access.recordDecision(.denied, for: request.target.clientID, at: clock())
        return decided.status == .authorized
            ? try await codeAnswer(to: request, purpose: .authorization) : answer(.denied, to: request)
    }

    /// Cancel: nothing is recorded; the client stays as it was (`notDetermined`) and may ask again.
    public func cancel(answering request: AuthorizationRequest) -> AuthorizationAnswer {
        answer(.cancelled, to: request)
    }

    /// A request whose client and redirect URI hold but whose other parameters do not: the error
    /// goes back to the client.
    public func reject(_ error: ConsentError, target: AuthorizationRequest.Target, state: String?) -> AuthorizationAnswer {
        var parameters = [("error", error.oauthError), ("error_description", error.message)]
        if let state { parameters.append(("state", state)) }
        return AuthorizationAnswer(
            outcome: .invalidRequest, location: RedirectURI.adding(parameters, to: target.redirectURI))
    }

    /// A new single-use code for the request, stored as its digest; the answer carries it.
    func codeAnswer(
        to request: AuthorizationRequest, purpose: IssuedCode.Purpose, selection: [UUID] = []
    ) async throws -> AuthorizationAnswer {
        let code = SecretToken.generate(.authorizationCode)
        let now = clock()
        try await repository.insertCode(
            IssuedCode(
                digest: code.digest, purpose: purpose, client: request.target.clientID, redirectURI: request.target.redirectURI,
                codeChallenge: request.codeChallenge, family: Self.randomIdentifier(), selection: selection,
                createdAt: now, expiresAt: now.addingTimeInterval(policy.codeLifetime)))
        return AuthorizationAnswer(
            outcome: .code,
            location: RedirectURI.adding([("code", code.value), ("state", request.state)], to: request.target.redirectURI))
    }

    /// 128 random bits in hex: a token family's name.
    static func randomIdentifier() -> String {
        var generator = SystemRandomNumberGenerator()
        return SHA256Digest.hexString((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    func answer(_ outcome: AuthorizationAnswer.Outcome, to request: AuthorizationRequest) -> AuthorizationAnswer {
        let status = outcome == .denied ? "denied" : "notDetermined"
        return AuthorizationAnswer(
            outcome: outcome,
            location: RedirectURI.adding(
                [("error", "access_denied"), ("authorization_status", status), ("state", request.state)],
                to: request.target.redirectURI))
    }
}
