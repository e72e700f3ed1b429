import Foundation
import HTTPTypes
import Hummingbird
import ServiceCore
import WalletConsent
import WalletOrders

/// `/finance/sign-in` and `/finance/sign-out`: the owner's password, a session cookie (and a
/// trusted-device cookie the first time a browser signs in), and back to the page that asked. A
/// wrong password, and a store with none set, read the same; too many attempts are refused
/// without the password being checked (``WalletConsent/SignInThrottle``).
struct SignInPages: Sendable {
    typealias Context = OrdersRequestContext

    let wallet: WalletStore

    func add(to pages: RouterGroup<Context>, table: RouteTable) {
        table.add(.get, "sign-in", prefix: "/finance", to: pages, use: form)
        table.add(.post, "sign-in", prefix: "/finance", to: pages, use: signIn)
        table.add(.post, "sign-out", prefix: "/finance", to: pages, use: signOut)
    }

    struct Model: PageModel {
        var frame: PageFrame
        var formToken: String
        var next: String
        var lead: String
        var error: String?
    }

    @Sendable func form(_ request: Request, context: Context) async throws -> Response {
        let next = OwnerGate.safeNext(try PageForm.query(request).value("next"))
        if context.owner != nil { return PageResponse.redirect(to: next) }
        return render(request, context: context, next: next, error: nil, status: .ok)
    }

    @Sendable func signIn(_ request: Request, context: Context) async throws -> Response {
        let fields = try await PageForm.read(request)
        let cookies = PageCookies(secure: context.isSecure)
        try PageForm.checkToken(fields, expected: cookies.value(cookies.signInName, in: request))
        let next = OwnerGate.safeNext(fields.value("next"))
        do {
            let signedIn = try await wallet.consent.signIn(
                password: fields.value("password") ?? "", from: context.clientAddress,
                device: cookies.value(cookies.deviceName, in: request))
            var response = PageResponse.redirect(to: next)
            let consent = wallet.configuration.consent
            response.setCookie(
                cookies.cookie(cookies.sessionName, value: signedIn.cookie.value, maxAge: Int(consent.sessions.absoluteLifetime)))
            if let device = signedIn.device {
                response.setCookie(
                    cookies.cookie(cookies.deviceName, value: device.value, maxAge: Int(consent.signIn.deviceLifetime)))
            }
            response.setCookie(cookies.expired(cookies.signInName))
            return response
        } catch ConsentError.wrongPassword {
            return render(request, context: context, next: next, error: PageText(request)["wrongPassword"], status: .ok)
        } catch ConsentError.signInThrottled(let seconds) {
            return render(
                request, context: context, next: next,
                error: Self.throttled(seconds, text: PageText(request)),
                status: .tooManyRequests, headers: [.retryAfter: String(seconds)])
        }
    }

    @Sendable func signOut(_ request: Request, context: Context) async throws -> Response {
        let fields = try await PageForm.read(request)
        let cookies = PageCookies(secure: context.isSecure)
        if let session = context.owner?.session {
            try PageForm.checkToken(fields, expected: session.formToken)
            if let cookie = cookies.value(cookies.sessionName, in: request) { try await wallet.consent.signOut(cookie: cookie) }
        }
        let text = PageText(request)
        var response = PageResponse.render(
            "message",
            MessageModel(
                frame: PageFrame(title: text["signedOut"], text: text), heading: text["signedOut"],
                text: text["signedOutText"], link: .init(href: "/finance/sign-in", label: text["signInAgain"])))
        response.setCookie(cookies.expired(cookies.sessionName))
        return response
    }

    /// The form, with a fresh sign-in token in a cookie and the page (the same value: the post
    /// must carry what only this site's page could read).
    private func render(
        _ request: Request, context: Context, next: String, error: String?, status: HTTPResponse.Status, headers: HTTPFields = [:]
    ) -> Response {
        let cookies = PageCookies(secure: context.isSecure)
        let token = SecretToken.generate(.session).digest
        let text = PageText(request)
        let purpose =
            if next.hasPrefix("/finance/authorize") {
                "purposeAuthorize"
            } else if next.hasPrefix("/finance/pick") {
                "purposePick"
            } else if next.hasPrefix("/console") {
                "purposeConsole"
            } else {
                "purposeSettings"
            }
        var response = PageResponse.render(
            "signIn",
            Model(
                frame: PageFrame(title: text["signIn"], text: text), formToken: token, next: next,
                lead: text["signInLead", ["purpose": text[purpose]]], error: error),
            status: status, headers: headers)
        response.setCookie(cookies.cookie(cookies.signInName, value: token, maxAge: 3_600))
        return response
    }
}

extension SignInPages {
    /// "Too many failed sign-ins. Try again in 2 minutes.": the wait in whole minutes, at least one.
    static func throttled(_ seconds: Int, text: PageText) -> String {
        let minutes = max(1, (seconds + 59) / 60)
        return minutes == 1 ? text["signInThrottledOne"] : text["signInThrottledMany", ["minutes": String(minutes)]]
    }
}

extension String {
    /// The sentence with its first letter in upper case.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
