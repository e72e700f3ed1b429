import FinanceData
import Foundation
import HTTPTypes
import Hummingbird
import OrdersWebProtocol
import ServiceCore
import WalletConsent
import WalletOrders

/// `/finance/settings`: what each client may see, changed by the owner as in the Settings app —
/// share more accounts, move an account's date, stop sharing one account (it shows as deleted in
/// the client's account history), or stop everything (the client becomes `denied`; its tokens
/// and history cursors stop working).
struct SettingsPages: Sendable {
    typealias Context = OrdersRequestContext

    let wallet: WalletStore

    func add(to pages: RouterGroup<Context>, table: RouteTable) {
        table.add(.get, "", prefix: "/finance", to: pages) { _, _ in PageResponse.redirect(to: "/finance/settings") }
        let owner = pages.group(context: OwnerContext.self)
        table.add(.get, "settings", prefix: "/finance", to: owner, use: settings)
        table.add(.post, "settings/share", prefix: "/finance", to: owner, use: share)
        table.add(.post, "settings/date", prefix: "/finance", to: owner, use: moveDate)
        table.add(.post, "settings/stop", prefix: "/finance", to: owner, use: stop)
        table.add(.post, "settings/revoke", prefix: "/finance", to: owner, use: revoke)
    }

    struct AccountRow {
        var key: String
        var clientID: String
        var accountID: String
        var displayName: String
        var institutionName: String
        var fromValue: String
        /// "Stop sharing <account> with <app>", for a screen reader.
        var stopLabel = ""
    }

    struct ClientSection {
        var anchor: String
        var id: String
        var name: String
        var status: String
        var statusLabel: String
        var revoked: Bool
        var shared: [AccountRow]
        var hasShared: Bool
        var unshared: [AccountRow]
        var hasUnshared: Bool
        var canRevoke: Bool
        var stopAllLabel: String
    }

    struct Model: PageModel {
        var frame: PageFrame
        var formToken: String
        var notice: String?
        var clients: [ClientSection]
    }

    /// What a form did, said on the page it returns to (a fixed text per form: nothing a request
    /// carries is echoed).
    static let notices = ["shared": "noticeShared", "date": "noticeDate", "stopped": "noticeStopped", "revoked": "noticeRevoked"]

    @Sendable func settings(_ request: Request, context: OwnerContext) async throws -> Response {
        let session = context.caller.session
        let text = PageText(request)
        let accounts = try await wallet.consent.ownerAccounts()
        let registered = try await wallet.consent.registeredClients()
        let names = Dictionary(registered.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // Registered clients, and clients decided on some other way (the CLI, the library); API
        // keys are merchants, not apps.
        var ids = registered.map(\.id)
        for access in try await wallet.clients() where names[access.client] == nil && !access.client.rawValue.hasPrefix("apikey.")
        {
            ids.append(access.client)
        }
        var sections: [ClientSection] = []
        for (index, id) in ids.enumerated() {
            let access = try await wallet.access(for: id)
            let rows = accounts.map { account in
                AccountRow(
                    key: "\(index)-\(account.id.uuidString)", clientID: id.rawValue, accountID: account.id.uuidString,
                    displayName: account.displayName, institutionName: account.institutionName,
                    fromValue: access.accounts[account.id]?.earliestDate.map(PageLocale.isoDay)
                        ?? PageLocale.isoDay(DefaultSharing.earliestDate(at: wallet.configuration.clock())))
            }
            let shared =
                access.status == .authorized ? rows.filter { access.shares(UUID(uuidString: $0.accountID) ?? UUID()) } : []
            let sharedIDs = Set(shared.map(\.accountID))
            let unshared = rows.filter { !sharedIDs.contains($0.accountID) }.map { row in
                var row = row
                row.fromValue = PageLocale.isoDay(DefaultSharing.earliestDate(at: wallet.configuration.clock()))
                return row
            }
            let client = names[id]
            let name = client?.name ?? id.rawValue
            let usable = client?.revokedAt == nil
            sections.append(
                ClientSection(
                    anchor: String(index), id: id.rawValue, name: name, status: access.status.rawValue,
                    statusLabel: text[Self.label(access.status)], revoked: !usable,
                    shared: shared.map { row in
                        var row = row
                        // An account shared without a date shows an empty field: the whole history.
                        row.fromValue =
                            access.accounts[UUID(uuidString: row.accountID) ?? UUID()]?.earliestDate.map(PageLocale.isoDay) ?? ""
                        row.stopLabel = text["stopSharingAccount", ["account": row.displayName, "app": name]]
                        return row
                    }, hasShared: !shared.isEmpty, unshared: usable ? unshared : [], hasUnshared: usable && !unshared.isEmpty,
                    canRevoke: access.status == .authorized, stopAllLabel: text["stopAllSharing", ["app": name]]))
        }
        let notice = try PageForm.query(request).value("done").flatMap { Self.notices[$0] }.map { text[$0] }
        return PageResponse.render(
            "settings",
            Model(
                frame: PageFrame(title: text["settings"], text: text, session: session.formToken, usesScript: true),
                formToken: session.formToken,
                notice: notice, clients: sections))
    }

    @Sendable func share(_ request: Request, context: OwnerContext) async throws -> Response {
        try await change(request, context: context, done: "shared") { fields, client in
            let grants = try await AccountChoices.grants(in: fields, among: wallet.consent.ownerAccounts())
            guard !grants.isEmpty else { return }
            try await wallet.grant(grants, to: client)
        }
    }

    @Sendable func moveDate(_ request: Request, context: OwnerContext) async throws -> Response {
        try await change(request, context: context, done: "date") { fields, client in
            let account = try Self.account(fields)
            guard try await wallet.access(for: client).shares(account) else {
                throw ServiceRequestError.invalidParameter(name: "account", reason: "not shared with this app")
            }
            try await wallet.grant(
                [AccountGrant(accountID: account, earliestDate: try AccountChoices.earliestDate(fields.value("from")))],
                to: client)
        }
    }

    @Sendable func stop(_ request: Request, context: OwnerContext) async throws -> Response {
        try await change(request, context: context, done: "stopped") { fields, client in
            try await wallet.revoke(client, accounts: [try Self.account(fields)])
        }
    }

    @Sendable func revoke(_ request: Request, context: OwnerContext) async throws -> Response {
        try await change(request, context: context, done: "revoked") { _, client in
            try await wallet.revoke(client)
        }
    }

    /// A Settings form: the owner, the form's token, the client named; then back to Settings.
    private func change(
        _ request: Request, context: OwnerContext, done: String, _ body: (FormFields, ClientIdentifier) async throws -> Void
    ) async throws -> Response {
        let fields = try await PageForm.read(request)
        try PageForm.checkToken(fields, expected: context.caller.session.formToken)
        guard let client = fields.value("client").flatMap(ClientIdentifier.init(rawValue:)) else {
            throw ServiceRequestError.invalidParameter(name: "client", reason: "not a client id")
        }
        try await body(fields, client)
        return PageResponse.redirect(to: "/finance/settings?done=\(done)")
    }

    private static func account(_ fields: FormFields) throws -> UUID {
        guard let id = fields.value("account").flatMap(UUID.init(uuidString:)) else {
            throw ServiceRequestError.invalidParameter(name: "account", reason: "not an account id")
        }
        return id
    }

    /// The key of a status's label.
    static func label(_ status: AuthorizationStatus) -> String {
        switch status {
        case .authorized: "accessAllowed"
        case .denied: "accessNotAllowed"
        case .notDetermined: "accessNotAsked"
        }
    }
}
