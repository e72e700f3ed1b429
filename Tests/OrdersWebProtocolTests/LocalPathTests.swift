import OrdersWebProtocol
import Testing

@Suite("LocalPath: a path that stays on this origin")
struct LocalPathTests {
    @Test(
        "paths a browser reads as another host, or that become one after a decoding, are not local",
        arguments: [
            "//finance/settings", "//evil.example", "/\\finance", "/\\/evil.example", "/%2Ffinance", "/%2f/evil.example",
            "/%5Cfinance", "/%5cevil", "/finance/\\x", "finance/settings", "", "https://evil.example/", "/fin ance",
            "/finance/\u{7F}", "/finance/é",
        ])
    func notLocal(_ path: String) {
        #expect(!LocalPath.isLocal(path))
    }

    @Test("one slash and a name: local", arguments: ["/", "/finance/settings", "/console/orders?q=1", "/finance//x", "/%41bc"])
    func local(_ path: String) {
        #expect(LocalPath.isLocal(path))
    }

    @Test("request targets: origin form checked up to the query; absolute form and * left to the router")
    func targets() {
        #expect(LocalPath.isRefused(target: "//finance/settings?x=/ok"))
        #expect(!LocalPath.isRefused(target: "/finance/settings?next=//evil.example"))
        #expect(!LocalPath.isRefused(target: "http://127.0.0.1/finance"))
        #expect(!LocalPath.isRefused(target: "*"))
    }

    @Test(
        "one spelling per path: no empty, trailing or dot segment (issue 52, item 11)",
        arguments: [
            ("/", true), ("/metrics", true), ("/api/v1/orders", true), ("/orders/order.com.x/ORDER%2F1", true),
            ("/v1/orders/a.b/..c", true), ("/metrics/", false), ("/metrics//", false), ("/api//v1/orders", false),
            ("/console/", false), ("/console//orders", false), ("/console/./orders", false), ("/console/../metrics", false),
            ("/console/%2e%2E/metrics", false), ("/console/.%2e", false), ("", false),
        ])
    func canonical(_ path: String, _ expected: Bool) {
        #expect(LocalPath.isCanonical(path) == expected)
        if !path.isEmpty { #expect(LocalPath.isRefused(target: path + "?a=b") == !expected) }
    }
}
