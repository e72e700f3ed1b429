import FinanceData
import Foundation
import HTTPTypes
import Hummingbird
import OrdersWebProtocol
import WalletConsent
import WalletOrders

/// `/finance/authorize`: `requestAuthorization()` as OAuth 2.0 authorization code with PKCE. The
/// client and redirect URI are checked first (a mismatch is shown, never redirected); then the
/// signed-in owner sees the sheet — Don't Allow, Cancel, or Select Accounts — unless the decision
/// is cached, in which case the client gets it at once.
struct ConsentPages: Sendable {
    typealias Context = OrdersRequestContext

    let wallet: WalletStore

    func add(to pages: RouterGroup<Context>, table: RouteTable) {
        table.add(.get, "authorize", prefix: "/finance", to: pages, use: sheet)
        table.add(.post, "authorize", prefix: "/finance", to: pages, use: decide)
        table.add(.get, "authorize/accounts", prefix: "/finance", to: pages, use: accountPicker)
        table.add(.post, "authorize/accounts", prefix: "/finance", to: pages, use: share)
    }

    struct SheetModel {
        var frame: PageFrame
        var formToken: String
        var clientName: String
        var clientID: String
        var initial: String
        var request: [RequestField]
        var selectAccounts: String
    }

    struct AccountsModel {
        struct Row {
            var id: String
            var displayName: String
            var institutionName: String
            var kind: String
            var defaultFrom: String
        }

        var frame: PageFrame
        var formToken: String
        var clientName: String
        var request: [RequestField]
        var accounts: [Row]
        var hasAccounts: Bool
    }

    @Sendable func sheet(_ request: Request, context: Context) async throws -> Response {
        switch try await AuthorizationPage.read(try PageForm.query(request), wallet: wallet, responseTypeRequired: true) {
        case .answer(let response): return response
        case .request(let client, let authorization):
            guard let session = context.ownerSession else { return OwnerGate.signIn(request, context: context) }
            if let cached = try await wallet.consent.cachedAnswer(to: authorization) {
                return AuthorizationPage.redirect(cached, for: authorization)
            }
            let fields = AuthorizationPage.fields(authorization)
            return PageResponse.render(
                "consentSheet",
                SheetModel(
                    frame: PageFrame(title: "Allow Access?", session: session.formToken), formToken: session.formToken,
                    clientName: client.name, clientID: client.id.rawValue, initial: String(client.name.prefix(1)).uppercased(),
                    request: fields,
                    selectAccounts: "/finance/authorize/accounts?" + FormFields(pairs: authorization.parameters).encoded),
                formActions: AuthorizationPage.formActions(authorization))
        }
    }

    @Sendable func decide(_ request: Request, context: Context) async throws -> Response {
        let fields = try await PageForm.read(request)
        guard let session = context.ownerSession else { return OwnerGate.signIn(request, context: context) }
        try PageForm.checkToken(fields, expected: session.formToken)
        switch try await AuthorizationPage.read(fields, wallet: wallet, responseTypeRequired: true) {
        case .answer(let response): return response
        case .request(_, let authorization):
            let answer =
                fields.value("decision") == "deny"
                ? try await wallet.consent.deny(answering: authorization) : wallet.consent.cancel(answering: authorization)
            return AuthorizationPage.redirect(answer, for: authorization)
        }
    }

    @Sendable func accountPicker(_ request: Request, context: Context) async throws -> Response {
        switch try await AuthorizationPage.read(try PageForm.query(request), wallet: wallet, responseTypeRequired: true) {
        case .answer(let response): return response
        case .request(let client, let authorization):
            guard let session = context.ownerSession else { return OwnerGate.signIn(request, context: context) }
            if let cached = try await wallet.consent.cachedAnswer(to: authorization) {
                return AuthorizationPage.redirect(cached, for: authorization)
            }
            let defaultFrom = PageLocale.isoDay(DefaultSharing.earliestDate(at: wallet.configuration.clock()))
            let rows = try await wallet.consent.ownerAccounts().map { account in
                AccountsModel.Row(
                    id: account.id.uuidString, displayName: account.displayName, institutionName: account.institutionName,
                    kind: account.kind == .liability ? "Credit" : "Deposit", defaultFrom: defaultFrom)
            }
            return PageResponse.render(
                "accountPicker",
                AccountsModel(
                    frame: PageFrame(title: "Select Accounts", session: session.formToken, usesScript: true),
                    formToken: session.formToken, clientName: client.name, request: AuthorizationPage.fields(authorization),
                    accounts: rows, hasAccounts: !rows.isEmpty),
                formActions: AuthorizationPage.formActions(authorization))
        }
    }

    @Sendable func share(_ request: Request, context: Context) async throws -> Response {
        let fields = try await PageForm.read(request)
        guard let session = context.ownerSession else { return OwnerGate.signIn(request, context: context) }
        try PageForm.checkToken(fields, expected: session.formToken)
        switch try await AuthorizationPage.read(fields, wallet: wallet, responseTypeRequired: true) {
        case .answer(let response): return response
        case .request(_, let authorization):
            guard fields.value("decision") == "share" else {
                return AuthorizationPage.redirect(wallet.consent.cancel(answering: authorization), for: authorization)
            }
            let grants = try await AccountChoices.grants(in: fields, among: wallet.consent.ownerAccounts())
            return AuthorizationPage.redirect(
                try await wallet.consent.share(grants, answering: authorization), for: authorization)
        }
    }
}

/// FinanceKit does not document the default earliest date of its account picker; this server
/// proposes one year back (the person can move it, or clear it to share the whole history).
enum DefaultSharing {
    static func earliestDate(at now: Date) -> Date {
        Calendar(identifier: .gregorian).date(byAdding: .year, value: -1, to: now) ?? now
    }
}
