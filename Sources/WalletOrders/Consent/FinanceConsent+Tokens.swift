import FinanceData
import Foundation
import WalletConsent
import WalletCore

/// A code presented for what it was issued for (RFC 6749 §4.1.3 with RFC 7636 §4.5).
public struct CodeRedemption: Sendable, Hashable {
    public var code: String
    /// PKCE's verifier; a redemption without one fails (after using the code up).
    public var codeVerifier: String?
    /// Must be the one the authorization request named, exactly.
    public var redirectURI: String
    public var client: ClientCredentials

    public init(code: String, codeVerifier: String?, redirectURI: String, client: ClientCredentials) {
        self.code = code
        self.codeVerifier = codeVerifier
        self.redirectURI = redirectURI
        self.client = client
    }
}

extension FinanceConsent {
    /// The token endpoint's `authorization_code` grant: the code, redeemed once, for an access
    /// token and a refresh token.
    ///
    /// The code is used up by the first attempt, whatever its outcome, so a stolen code tried
    /// without the verifier is gone for the thief and the client alike; a code presented again
    /// also ends the tokens the first exchange issued (RFC 6749 §4.1.2).
    ///
    /// - Throws: ``WalletConsent/ConsentError/invalidClient`` when the client does not
    ///   authenticate; ``WalletConsent/ConsentError/invalidGrant(_:)`` for a code that is unknown,
    ///   expired, used, another client's or another redirect URI's, a verifier that does not match,
    ///   or a client whose access was withdrawn meanwhile.
    public func exchange(_ redemption: CodeRedemption) async throws -> TokenResponse {
        try await control.checkUsable(.financialData, for: "token")
        let code = try await redeem(redemption, purpose: .authorization)
        guard try await access.access(for: code.client).status == .authorized else {
            throw ConsentError.invalidGrant("the owner no longer shares financial data with this client")
        }
        return try await issueTokens(to: code.client, family: code.family)
    }

    /// The token endpoint's `refresh_token` grant: a new access token and a new refresh token; the
    /// one presented is used up. A refresh token presented a second time ends its whole family —
    /// one of the two holders was not the client.
    public func refresh(_ refreshToken: String, client credentials: ClientCredentials) async throws -> TokenResponse {
        try await control.checkUsable(.financialData, for: "token")
        let client = try await authenticate(credentials)
        guard SecretToken.hasForm(refreshToken, of: .refreshToken) else {
            throw ConsentError.invalidGrant("the refresh token is not one this server issued")
        }
        let now = clock()
        let access = SecretToken.generate(.accessToken)
        let refresh = SecretToken.generate(.refreshToken)
        switch try await repository.rotateRefreshToken(
            digest: SecretToken.digest(of: refreshToken), client: client.id,
            replacements: tokens(access: access, refresh: refresh, client: client.id, family: "", at: now), at: now)
        {
        case .rotated:
            return TokenResponse(
                accessToken: access.value, expiresIn: Int(policy.accessTokenLifetime), refreshToken: refresh.value)
        case .revoked:
            logger.warning(
                "refresh token reused or presented by another client: its family is revoked",
                metadata: ["client": .string(client.id.rawValue)])
            throw ConsentError.invalidGrant("the refresh token was already used")
        case .invalid:
            throw ConsentError.invalidGrant("the refresh token is unknown or expired")
        }
    }

    /// The client a bearer access token was issued to, and when the token expires; throws
    /// ``WalletConsent/ConsentError/invalidToken`` for anything else. Whether the client may see
    /// data is then the access core's question (``FinanceStore``).
    public func authenticate(accessToken: String) async throws -> (client: ClientIdentifier, expiresAt: Date) {
        guard SecretToken.hasForm(accessToken, of: .accessToken),
            let found = try await repository.accessToken(digest: SecretToken.digest(of: accessToken), at: clock())
        else { throw ConsentError.invalidToken }
        return found
    }

    /// What a bearer access token's call may see, read in one statement: its client and expiry,
    /// the client's access and financial data's restriction (``WalletCore/AccessSnapshot``). Hand
    /// it to ``WalletStore/financeStore(for:)-(AccessSnapshot)`` so that every check of the call
    /// uses it; throws ``WalletConsent/ConsentError/invalidToken`` as
    /// ``authenticate(accessToken:)`` does.
    public func accessSnapshot(accessToken: String) async throws -> AccessSnapshot {
        guard SecretToken.hasForm(accessToken, of: .accessToken),
            let found = try await repository.accessSnapshot(digest: SecretToken.digest(of: accessToken), at: clock())
        else { throw ConsentError.invalidToken }
        return found
    }

    /// RFC 7009's revocation: the client (authenticated as at the token endpoint) revokes one of
    /// its tokens — an access token alone; a refresh token, and with it every token of the same
    /// grant (§2.1's SHOULD). A token that is unknown, expired, malformed or another client's
    /// changes nothing and is no error (§2.2: the client could do nothing with one), so the answer
    /// tells nothing about tokens not the client's.
    ///
    /// - Throws: ``WalletConsent/ConsentError/invalidClient`` when the client does not authenticate.
    public func revoke(token: String, client credentials: ClientCredentials) async throws {
        let client = try await authenticate(credentials)
        let known = SecretToken.hasForm(token, of: .accessToken) || SecretToken.hasForm(token, of: .refreshToken)
        guard known else { return }
        if try await repository.revokeToken(digest: SecretToken.digest(of: token), client: client.id) {
            logger.info("token revoked by its client", metadata: ["client": .string(client.id.rawValue)])
        }
    }

    /// The code of `redemption`, redeemed and checked: the client authenticated and the one it was
    /// issued to, the redirect URI the same, unexpired, first use, the verifier matching.
    func redeem(_ redemption: CodeRedemption, purpose: IssuedCode.Purpose) async throws -> IssuedCode {
        let client = try await authenticate(redemption.client)
        guard SecretToken.hasForm(redemption.code, of: .authorizationCode),
            let redeemed = try await repository.redeemCode(
                digest: SecretToken.digest(of: redemption.code), purpose: purpose, at: clock())
        else { throw ConsentError.invalidGrant("the code is unknown or expired") }
        let code = redeemed.code
        if redeemed.wasUsed {
            try await repository.revokeTokens(family: code.family)
            logger.warning(
                "authorization code replayed: its tokens are revoked", metadata: ["client": .string(code.client.rawValue)])
            throw ConsentError.invalidGrant("the code was already used")
        }
        guard clock() < code.expiresAt else { throw ConsentError.invalidGrant("the code is unknown or expired") }
        guard code.client == client.id else { throw ConsentError.invalidGrant("the code was issued to another client") }
        guard code.redirectURI == redemption.redirectURI else {
            throw ConsentError.invalidGrant("redirect_uri is not the one the code was issued for")
        }
        guard let verifier = redemption.codeVerifier else { throw ConsentError.invalidGrant("code_verifier is required (PKCE)") }
        guard PKCE.verify(verifier, against: code.codeChallenge) else {
            throw ConsentError.invalidGrant("the code verifier does not match the code challenge")
        }
        return code
    }

    private func issueTokens(to client: ClientIdentifier, family: String) async throws -> TokenResponse {
        let access = SecretToken.generate(.accessToken)
        let refresh = SecretToken.generate(.refreshToken)
        try await repository.insertTokens(tokens(access: access, refresh: refresh, client: client, family: family, at: clock()))
        return TokenResponse(accessToken: access.value, expiresIn: Int(policy.accessTokenLifetime), refreshToken: refresh.value)
    }

    private func tokens(
        access: SecretToken, refresh: SecretToken, client: ClientIdentifier, family: String, at time: Date
    ) -> [IssuedToken] {
        [
            IssuedToken(
                digest: access.digest, kind: .access, client: client, family: family, createdAt: time,
                expiresAt: time.addingTimeInterval(policy.accessTokenLifetime)),
            IssuedToken(
                digest: refresh.digest, kind: .refresh, client: client, family: family, createdAt: time,
                expiresAt: time.addingTimeInterval(policy.refreshTokenLifetime)),
        ]
    }
}
