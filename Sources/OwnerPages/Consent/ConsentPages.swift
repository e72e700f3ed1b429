import FinanceData
import Foundation
import HTTPTypes
import Hummingbird
import OrdersWebProtocol
import ServiceCore
import WalletConsent
import WalletOrders

/// `/finance/authorize`: `requestAuthorization()` as OAuth 2.0 authorization code with PKCE. The
/// client and redirect URI are checked first (a mismatch is shown, never redirected); then the
/// signed-in owner sees the sheet — Don't Allow, Cancel, or Select Accounts — unless the decision
/// is cached, in which case the client gets it at once; a public client that was authorized gets
/// a one-tap confirmation first (``WalletOrders/FinanceConsent/cachedDecision(on:from:)``).
struct ConsentPages: Sendable {
    typealias Context = OrdersRequestContext

    let wallet: WalletStore

    func add(to pages: RouterGroup<Context>, table: RouteTable) {
        table.add(.get, "authorize", prefix: "/finance", to: pages, use: sheet)
        table.add(.post, "authorize", prefix: "/finance", to: pages, use: decide)
        table.add(.get, "authorize/accounts", prefix: "/finance", to: pages, use: accountPicker)
        table.add(.post, "authorize/accounts", prefix: "/finance", to: pages, use: share)
    }

    struct SheetModel: PageModel {
        var frame: PageFrame
        var formToken: String
        var clientName: String
        var clientID: String
        var initial: String
        var request: [RequestField]
        var selectAccounts: String
    }

    struct AccountsModel: PageModel {
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

    struct ConfirmModel: PageModel {
        struct Row {
            var displayName: String
            var institutionName: String
            var from: String
        }

        var frame: PageFrame
        var formToken: String
        var clientName: String
        var clientID: String
        var initial: String
        var request: [RequestField]
        var accounts: [Row]
        var hasAccounts: Bool
    }

    /// The cached decision's answer, or the confirmation a public client needs; nil for the sheet.
    private func cached(_ owner: AuthorizationPage.OwnerRequest, _ request: Request, context: Context) async throws -> Response? {
        switch try await owner.call.cachedDecision(on: owner.authorization) {
        case .answered(let answer):
            return AuthorizationPage.redirect(answer, for: owner.authorization, issuer: context.publicOrigin)
        case .confirm:
            return try await confirmation(owner, request)
        case .ask:
            return nil
        }
    }

    private func confirmation(_ owner: AuthorizationPage.OwnerRequest, _ request: Request) async throws -> Response {
        let locale = PageLocale(acceptLanguage: request.headers[.acceptLanguage])
        let text = PageText(locale, values: ["app": owner.client.name])
        let grants = try await wallet.access(for: owner.client.id).accounts
        let rows = try await owner.call.ownerAccounts().compactMap { account -> ConfirmModel.Row? in
            guard let grant = grants[account.id] else { return nil }
            return ConfirmModel.Row(
                displayName: account.displayName, institutionName: account.institutionName,
                from: grant.earliestDate.map { text["sharedSince", ["date": locale.day($0)]] } ?? text["wholeHistory"])
        }
        let client = owner.client
        return PageResponse.render(
            "consentConfirm",
            ConfirmModel(
                frame: PageFrame(title: text["continueSharing"], text: text, session: owner.session.formToken),
                formToken: owner.session.formToken,
                clientName: client.name, clientID: client.id.rawValue, initial: String(client.name.prefix(1)).uppercased(),
                request: AuthorizationPage.fields(owner.authorization), accounts: rows, hasAccounts: !rows.isEmpty),
            formActions: AuthorizationPage.formActions(owner.authorization))
    }

    @Sendable func sheet(_ request: Request, context: Context) async throws -> Response {
        let step = try await AuthorizationPage.shown(request, context: context, wallet: wallet, responseTypeRequired: true)
        guard case .proceed(let owner) = step else { return step.response }
        if let answer = try await cached(owner, request, context: context) { return answer }
        let client = owner.client
        let text = PageText(request, values: ["app": client.name])
        return PageResponse.render(
            "consentSheet",
            SheetModel(
                frame: PageFrame(title: text["allowAccess"], text: text, session: owner.session.formToken),
                formToken: owner.session.formToken,
                clientName: client.name, clientID: client.id.rawValue, initial: String(client.name.prefix(1)).uppercased(),
                request: AuthorizationPage.fields(owner.authorization),
                selectAccounts: "/finance/authorize/accounts?" + FormFields(pairs: owner.authorization.parameters).encoded),
            formActions: AuthorizationPage.formActions(owner.authorization))
    }

    @Sendable func decide(_ request: Request, context: Context) async throws -> Response {
        let step = try await AuthorizationPage.posted(request, context: context, wallet: wallet, responseTypeRequired: true)
        guard case .proceed(let owner) = step else { return step.response }
        let answer: AuthorizationAnswer
        switch owner.fields.value("decision") {
        case "deny": answer = try await owner.call.deny(answering: owner.authorization)
        case "continue": answer = try await owner.call.continueSharing(answering: owner.authorization)
        default: answer = wallet.consent.cancel(answering: owner.authorization)
        }
        return AuthorizationPage.redirect(answer, for: owner.authorization, issuer: context.publicOrigin)
    }

    @Sendable func accountPicker(_ request: Request, context: Context) async throws -> Response {
        let step = try await AuthorizationPage.shown(request, context: context, wallet: wallet, responseTypeRequired: true)
        guard case .proceed(let owner) = step else { return step.response }
        if let answer = try await cached(owner, request, context: context) { return answer }
        let text = PageText(request, values: ["app": owner.client.name])
        let defaultFrom = PageLocale.isoDay(DefaultSharing.earliestDate(at: wallet.configuration.clock()))
        let rows = try await owner.call.ownerAccounts().map { account in
            AccountsModel.Row(
                id: account.id.uuidString, displayName: account.displayName, institutionName: account.institutionName,
                kind: text[account.kind == .liability ? "kindCredit" : "kindDeposit"], defaultFrom: defaultFrom)
        }
        return PageResponse.render(
            "accountPicker",
            AccountsModel(
                frame: PageFrame(
                    title: text["selectAccounts"], text: text, session: owner.session.formToken, usesScript: true),
                formToken: owner.session.formToken, clientName: owner.client.name,
                request: AuthorizationPage.fields(owner.authorization), accounts: rows, hasAccounts: !rows.isEmpty),
            formActions: AuthorizationPage.formActions(owner.authorization))
    }

    @Sendable func share(_ request: Request, context: Context) async throws -> Response {
        let step = try await AuthorizationPage.posted(request, context: context, wallet: wallet, responseTypeRequired: true)
        guard case .proceed(let owner) = step else { return step.response }
        guard owner.fields.value("decision") == "share" else {
            return AuthorizationPage.redirect(
                wallet.consent.cancel(answering: owner.authorization), for: owner.authorization, issuer: context.publicOrigin)
        }
        let grants = try await AccountChoices.grants(in: owner.fields, among: owner.call.ownerAccounts())
        return AuthorizationPage.redirect(
            try await owner.call.share(grants, answering: owner.authorization), for: owner.authorization,
            issuer: context.publicOrigin)
    }
}

/// FinanceKit does not document the default earliest date of its account picker; this server
/// proposes one year back (the person can move it, or clear it to share the whole history).
enum DefaultSharing {
    static func earliestDate(at now: Date) -> Date {
        Calendar(identifier: .gregorian).date(byAdding: .year, value: -1, to: now) ?? now
    }
}
