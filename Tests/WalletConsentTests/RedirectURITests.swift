import Testing
import WalletConsent

@Suite("Redirect URIs: what may be registered, and how answers are added")
struct RedirectURITests {
    @Test(
        "https, http to loopback, and an app's domain-named scheme are accepted",
        arguments: [
            "https://budget.example/callback", "https://budget.example:8443/cb?from=orders", "http://127.0.0.1:9999/cb",
            "http://[::1]:9999/cb", "http://localhost/cb", "com.example.budget:/callback",
        ])
    func accepted(uri: String) throws {
        try RedirectURI.check(uri)
    }

    @Test(
        "scripts, data, plain http elsewhere, fragments, spaces and relative addresses are refused",
        arguments: [
            "javascript:alert(1)", "data:text/html,hi", "http://budget.example/cb", "https://budget.example/cb#frag",
            "https://bad example/cb", "/callback", "", "file:///etc/passwd", "customscheme:/cb", "https:///nohost",
            "https://budget.example/\u{0}",
        ])
    func refused(uri: String) {
        #expect(throws: ConsentError.self) { try RedirectURI.check(uri) }
    }

    @Test("parameters are added to an existing query, every reserved character encoded")
    func adding() {
        let state = "a&b=c+d #e"
        #expect(
            RedirectURI.adding([("code", "woc_1"), ("state", state)], to: "https://app.example/cb?from=x")
                == "https://app.example/cb?from=x&code=woc_1&state=a%26b%3Dc%2Bd%20%23e")
        #expect(
            RedirectURI.adding([("error", "access_denied")], to: "com.example.app:/cb")
                == "com.example.app:/cb?error=access_denied")
    }

    @Test("a page's form-action source is the redirect's origin, or an app's scheme")
    func formActionSource() {
        #expect(RedirectURI.formActionSource(for: "https://app.example:8443/cb?x=1") == "https://app.example:8443")
        #expect(RedirectURI.formActionSource(for: "http://127.0.0.1:9999/cb") == "http://127.0.0.1:9999")
        #expect(RedirectURI.formActionSource(for: "com.example.app:/cb") == "com.example.app:")
    }
}
