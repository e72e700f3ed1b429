import Foundation
import HTTPTypes
import Hummingbird
import OrderPackage
import OrderRendering
import OrderStorage
import OrdersWebProtocol
import ServiceCore
import WalletOrders
import WalletPrimitives

/// The merchant API's keys: the list, create (the key shown once), revoke.
extension ConsolePages {
    struct KeyRow {
        var identifier: String
        var name: String
        var types: String
        var createdAt: String
        var revokedAt: String?
    }

    /// A signing identity with the days its certificates have left (issue 53: expiry watched).
    struct IdentityRow {
        var orderType: String
        var team: String
        var key: String
        /// Each certificate: its role, when it expires, and the days left in words.
        var certificates: [CertificateRow]
    }

    struct CertificateRow {
        var role: String
        var notAfter: String
        var daysLeft: String
        /// Under ``CertificateExpiry/warningDays`` days, or expired: shown as a warning.
        var isDue: Bool
    }

    struct KeysModel: PageModel {
        var frame: PageFrame
        var formToken: String
        var keys: [KeyRow]
        var identities: [IdentityRow]
        /// A key just created: shown on this one answer, never again.
        var created: String?
        var notice: String?
    }

    @Sendable func keys(_ request: Request, context: OwnerContext) async throws -> Response {
        let session = context.caller.session
        let notice = try PageForm.query(request).value("done").flatMap { $0 == "revoked" ? "The key is revoked." : nil }
        return try await keysPage(session: session.formToken, created: nil, notice: notice)
    }

    private func keysPage(session formToken: String, created: String?, notice: String?) async throws -> Response {
        let rows = try await wallet.apiKeys().reversed().map { key in
            KeyRow(
                identifier: key.identifier, name: key.name, types: key.orderTypeIdentifiers.sorted().joined(separator: ", "),
                createdAt: RFC3339Timestamp(key.createdAt).text, revokedAt: key.revokedAt.map { RFC3339Timestamp($0).text })
        }
        let now = Date()
        let identities = try await wallet.signingIdentities().map { identity in
            IdentityRow(
                orderType: identity.orderTypeIdentifier, team: identity.teamIdentifier, key: identity.key.summary,
                certificates: CertificateExpiry.of(
                    certificatePEM: identity.certificatePEM, intermediatesPEM: identity.intermediatesPEM
                ).map { expiry in
                    let days = expiry.daysLeft(at: now)
                    return CertificateRow(
                        role: expiry.role == .certificate ? "Certificate" : "Intermediate",
                        notAfter: RFC3339Timestamp(expiry.notAfter).text,
                        daysLeft: expiry.notAfter <= now ? "expired" : days == 1 ? "1 day left" : "\(days) days left",
                        isDue: days < CertificateExpiry.warningDays)
                })
        }
        return PageResponse.render(
            "consoleKeys",
            KeysModel(
                frame: PageFrame(title: "API Keys", text: .console, session: formToken, console: true), formToken: formToken,
                keys: rows, identities: identities,
                created: created,
                notice: notice))
    }

    /// Creates a key and shows it once, in this response (not after a redirect: a reload must
    /// not show it again, and `no-store` keeps it out of the history's cache).
    @Sendable func createKey(_ request: Request, context: OwnerContext) async throws -> Response {
        let session = context.caller.session
        let fields = try await PageForm.read(request)
        try PageForm.checkToken(fields, expected: session.formToken)
        let name = String((fields.value("name") ?? "").prefix(200))
        let types = Set(
            (fields.value("types") ?? "").split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\n" }).map(String.init)
                .prefix(100))
        let created = try await wallet.createAPIKey(name: name, orderTypes: types)
        return try await keysPage(session: session.formToken, created: created.token, notice: nil)
    }

    @Sendable func revokeKey(_ request: Request, context: OwnerContext) async throws -> Response {
        let session = context.caller.session
        let fields = try await PageForm.read(request)
        try PageForm.checkToken(fields, expected: session.formToken)
        _ = try await wallet.revokeAPIKey(fields.value("key") ?? "")
        return PageResponse.redirect(to: "/console/keys?done=revoked")
    }
}
