import FinanceData
import Foundation
import Hummingbird
import OrdersWebProtocol
import ServiceCore
import WalletConsent
import WalletOrders

/// What the consent pages and the picker share: reading an authorization request from a page's
/// query or form, in the order the checks must come, and answering the client.
enum AuthorizationPage {
    enum Reading {
        /// Answered already: a malformed request sent back to a client that checked out.
        case answer(Response)
        case request(AuthorizationCall, AuthorizationRequest)
    }

    /// The client and redirect URI first: when they do not check out, the page says so and
    /// nothing is sent anywhere (``WalletConsent/ConsentError/unknownClient`` propagates to the
    /// error page). Only then are the other parameters read, and their errors sent to the client.
    static func read(
        _ fields: FormFields, wallet: WalletStore, responseTypeRequired: Bool, issuer: String
    ) async throws -> Reading {
        let target = try AuthorizationRequest.target(in: fields.pairs)
        let call = try await wallet.consent.call(for: target)
        do {
            return .request(
                call, try AuthorizationRequest.parse(fields.pairs, target: target, responseTypeRequired: responseTypeRequired))
        } catch {
            let states = fields.values("state")
            let state =
                states.count == 1 && states[0].utf8.count <= 512 && states[0].utf8.allSatisfy({ (0x20...0x7E).contains($0) })
                ? states[0] : nil
            let answer = wallet.consent.reject(error, target: target, state: state)
            return .answer(PageResponse.redirect(to: Self.location(answer, issuer: issuer)))
        }
    }

    /// The request as hidden fields, for the next form.
    static func fields(_ request: AuthorizationRequest) -> [RequestField] {
        request.parameters.map { RequestField(name: $0.0, value: $0.1) }
    }

    /// The client's redirect origin, which forms on the page are redirected to.
    static func formActions(_ request: AuthorizationRequest) -> [String] {
        RedirectURI.formActionSource(for: request.target.redirectURI).map { [$0] } ?? []
    }

    /// Back to the client with `answer`, and the issuer (RFC 9207): every authorization response,
    /// a code or an error, says which server answered, so that a client talking to several cannot
    /// be made to send one's code to another (RFC 9700 §4.4, mix-up).
    static func redirect(_ answer: AuthorizationAnswer, for request: AuthorizationRequest, issuer: String) -> Response {
        PageResponse.redirect(to: location(answer, issuer: issuer), formActions: formActions(request))
    }

    static func location(_ answer: AuthorizationAnswer, issuer: String) -> String {
        RedirectURI.adding([("iss", issuer)], to: answer.location)
    }
}

extension AuthorizationPage {
    /// A page acting on an authorization request for the signed-in owner.
    struct OwnerRequest {
        var session: OwnerSession
        /// The request's client, and financial data checked usable once for this request.
        var call: AuthorizationCall
        var authorization: AuthorizationRequest
        var fields: FormFields

        var client: RegisteredClient { call.client }
    }

    /// Where a page of an authorization request goes next: on, for the owner, or elsewhere first.
    enum Step {
        case proceed(OwnerRequest)
        /// Already answered: a malformed request sent back to its client, or the way to sign in.
        case respond(Response)

        /// The answer of ``respond(_:)``; a page that proceeds has none yet.
        var response: Response {
            if case .respond(let response) = self { return response }
            return Response(status: .internalServerError)
        }
    }

    /// A page showing an authorization request (`GET`): the request from the query, read in the
    /// order the checks must come, then the signed-in owner.
    static func shown(
        _ request: Request, context: OrdersRequestContext, wallet: WalletStore, responseTypeRequired: Bool
    ) async throws -> Step {
        let fields = try PageForm.query(request)
        switch try await read(fields, wallet: wallet, responseTypeRequired: responseTypeRequired, issuer: context.publicOrigin) {
        case .answer(let response): return .respond(response)
        case .request(let call, let authorization):
            let session = try OwnerContext(context: context).caller.session
            return .proceed(OwnerRequest(session: session, call: call, authorization: authorization, fields: fields))
        }
    }

    /// A form answering an authorization request (`POST`): the signed-in owner and the page's token
    /// first, then the request from the form.
    static func posted(
        _ request: Request, context: OrdersRequestContext, wallet: WalletStore, responseTypeRequired: Bool
    ) async throws -> Step {
        let fields = try await PageForm.read(request)
        let session = try OwnerContext(context: context).caller.session
        try PageForm.checkToken(fields, expected: session.formToken)
        switch try await read(fields, wallet: wallet, responseTypeRequired: responseTypeRequired, issuer: context.publicOrigin) {
        case .answer(let response): return .respond(response)
        case .request(let call, let authorization):
            return .proceed(OwnerRequest(session: session, call: call, authorization: authorization, fields: fields))
        }
    }
}

/// A hidden form field.
struct RequestField {
    var name: String
    var value: String
}

/// The accounts ticked on a form, each with its "share from" date: `share-[…-]<id>=on` and
/// `from-<id>=YYYY-MM-DD` (empty: the whole history). One name per checkbox, unique on the page
/// (Settings has a form per client): each account is a choice of its own, with its date beside it.
enum AccountChoices {
    static func grants(in fields: FormFields, among accounts: [Account]) throws -> [AccountGrant] {
        let known = Set(accounts.map(\.id))
        var grants: [AccountGrant] = []
        for text in Set(fields.pairs.filter { $0.name.hasPrefix("share-") }.map { String($0.name.suffix(36)) }) {
            guard let id = UUID(uuidString: text), known.contains(id) else {
                throw ServiceRequestError.invalidParameter(name: "share", reason: "not one of your accounts")
            }
            grants.append(AccountGrant(accountID: id, earliestDate: try earliestDate(fields.value("from-\(text)"))))
        }
        return grants.sorted { $0.accountID.uuidString < $1.accountID.uuidString }
    }

    /// nil for no limit (an empty field); the start of that day otherwise.
    static func earliestDate(_ text: String?) throws -> Date? {
        guard let text, !text.isEmpty else { return nil }
        guard let date = PageLocale.date(fromISODay: text) else {
            throw ServiceRequestError.invalidParameter(name: "from", reason: "not a date (YYYY-MM-DD)")
        }
        return date
    }
}
