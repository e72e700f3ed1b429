import Foundation
import Hummingbird

/// The pages' cookies: the owner's session, the sign-in form's token (a double-submit value: no
/// session exists yet to keep it in), and the trusted device's. All `HttpOnly`,
/// `SameSite=Strict`, for the whole site;
/// over TLS (or behind a trusted proxy that received TLS) also `Secure` and named with the
/// `__Host-` prefix, which browsers keep to this host and path `/`.
package struct PageCookies {
    package let secure: Bool

    package init(secure: Bool) {
        self.secure = secure
    }

    package var sessionName: String { secure ? "__Host-orders_session" : "orders_session" }
    package var signInName: String { secure ? "__Host-orders_signin" : "orders_signin" }
    /// A browser the owner signed in from (``WalletConsent/SignInThrottle``); kept a year, and
    /// not ended by signing out.
    package var deviceName: String { secure ? "__Host-orders_device" : "orders_device" }

    package func cookie(_ name: String, value: String, maxAge: Int) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// Tells the browser to forget `name`.
    package func expired(_ name: String) -> Cookie {
        cookie(name, value: "", maxAge: 0)
    }

    package func value(_ name: String, in request: Request) -> String? {
        request.cookies[name]?.value
    }
}
