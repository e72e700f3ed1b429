import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OrderRendering
import OrdersWebProtocol
import TestArchiveTable
import Testing
import WalletOrders

@testable import OrdersService
@testable import OwnerPages
@testable import ServiceCore

/// The owner's pages and the customer's in the languages of Apple's Wallet: every key in every
/// language, every key a template reads in English, and each page in the reader's language with
/// nothing of its own left in English.
@Suite("The pages' own words: six languages")
struct PageTextTests {
    @Test("every language has exactly English's keys, none empty, each naming English's values", arguments: PageLanguage.allCases)
    func everyKey(_ language: PageLanguage) throws {
        let english = try #require(PageText.strings.tables[.english])
        let table = try #require(PageText.strings.tables[language])
        #expect(Set(table.keys) == Set(english.keys), "\(language): missing \(Set(english.keys).subtracting(table.keys))")
        func names(_ text: String) -> [String] {
            text.split(separator: "{", omittingEmptySubsequences: false).dropFirst().compactMap {
                $0.split(separator: "}", maxSplits: 1).first.map(String.init)
            }.sorted()
        }
        for (key, text) in table {
            #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(language) \(key)")
            #expect(names(text) == names(english[key] ?? ""), "\(language) \(key): \(text)")
        }
        #expect(english.count >= 90)
    }

    @Test("every {{t.key}} a template reads is a key")
    func templatesReadKeys() throws {
        let keys = PageText.strings.keys
        var read = 0
        for (name, text) in PageTemplates.sources {
            var rest = Substring(text)
            while let start = rest.range(of: "{{t.") {
                let end = try #require(rest[start.upperBound...].range(of: "}}"))
                let key = String(rest[start.upperBound..<end.lowerBound])
                #expect(keys.contains(key), "\(name) reads \(key)")
                read += 1
                rest = rest[end.upperBound...]
            }
        }
        #expect(read >= 40)
    }

    @Test("values fill their names in one pass: a value naming another is kept as written; an unknown name stays")
    func values() {
        let text = PageText(.english, values: ["app": "{account}"])
        #expect(text["stopSharingAccount", ["account": "Everyday"]] == "Stop sharing Everyday with {account}")
        #expect(PageText(.german)["consentHeading"] == "„{app}“ möchte auf deine Finanzdaten zugreifen")
        #expect(PageText(.japanese)["no such key"] == "no such key")
    }

    /// A page for a signed-in owner in `language`.
    static func page(
        _ client: some TestClientProtocol, _ uri: String, cookie: String, language: String
    ) async throws -> String {
        let response = try await client.executeRequest(
            uri: uri, method: .get,
            headers: [.cookie: cookie, .acceptLanguage: language], body: nil)
        #expect(response.status == .ok, "\(uri): \(response.status)")
        return String(buffer: response.body)
    }

    @Test(
        "the consent sheet, account picker, transaction picker, its review, Settings and sign-in in the reader's language",
        arguments: [
            (
                "de-DE,en;q=0.5", "de",
                [
                    "„Budget“ möchte auf deine Finanzdaten zugreifen", "Nicht erlauben", "Konten auswählen",
                    "Konten mit „Budget“ teilen", "Teilen ab", "Transaktionen für „Budget“ auswählen", "Händler",
                    "ausgewählt (höchstens", "Apps mit Zugriff auf deine Finanzdaten", "Nicht mehr teilen", "Abmelden",
                    "Gebucht", "1 Transaktion mit „Budget“ teilen?",
                ]
            ),
            (
                "ja", "ja",
                [
                    "“Budget”が財務データへのアクセスを求めています", "許可しない", "口座を選択", "“Budget”と口座を共有",
                    "“Budget”に共有する取引を選択", "加盟店", "財務データにアクセスできるアプリ", "共有を停止", "サインアウト",
                    "記帳済み", "1件の取引を“Budget”と共有しますか?",
                ]
            ),
            (
                "zh-CN", "zh-Hans",
                ["“Budget”想要访问你的财务数据", "不允许", "选择账户", "与“Budget”共享账户", "商户", "退出登录", "已入账"]
            ),
            ("fr-CA", "fr", ["« Budget » souhaite accéder à vos données financières", "Refuser", "Choisir les comptes"]),
            ("es-419", "es", ["«Budget» quiere acceder a tus datos financieros", "No permitir", "Seleccionar cuentas"]),
        ])
    func ownerPages(_ header: String, _ tag: String, _ words: [String]) async throws {
        let fixture = try await FinanceWebTests.fixture()
        _ = try await fixture.tokens()
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let cookie = try await FinanceWebTests.ownerCookie(client)
            let request =
                "client_id=\(fixture.client.client.id)&redirect_uri=\(PercentEncoding.encode(FinanceWebTests.redirect))"
                + "&state=s&code_challenge=\(PKCE.challenge(for: FinanceWebTests.verifier))&code_challenge_method=S256"
            // The sheet of a client not yet decided: another, registered for this test.
            let other = try await fixture.wallet.consent.registerClient(
                name: "Budget", redirectURIs: ["https://other.example/cb"], isPublic: false)
            let otherRequest =
                "response_type=code&client_id=\(other.client.id)&redirect_uri=\(PercentEncoding.encode("https://other.example/cb"))"
                + "&state=s&code_challenge=\(PKCE.challenge(for: FinanceWebTests.verifier))&code_challenge_method=S256"
            var pages: [String] = []
            for uri in [
                "/finance/authorize?" + otherRequest, "/finance/authorize/accounts?" + otherRequest, "/finance/pick?" + request,
                "/finance/settings",
            ] {
                pages.append(try await Self.page(client, uri, cookie: cookie, language: header))
            }
            // The review of one transaction, picked from the picker's first row.
            let picker = pages[2]
            let first = try #require(
                picker.range(of: #"name="selected" value=""#).map { String(picker[$0.upperBound...].prefix(36)) })
            pages.append(
                try await Self.page(client, "/finance/pick/review?\(request)&selected=\(first)", cookie: cookie, language: header)
            )
            let signIn = try await client.executeRequest(
                uri: "/finance/sign-in", method: .get, headers: [.acceptLanguage: header], body: nil)
            pages.append(String(buffer: signIn.body))
            for page in pages { #expect(page.contains("<html lang=\"\(tag)\">"), "\(page.prefix(200))") }
            let all = pages.joined(separator: "\n")
            for word in words { #expect(all.contains(word), "\(tag): no \(word)") }
            for english in [
                "Would Like to Access", "Don’t Allow", ">Select Accounts<", "Share from", ">Search<", "Apps with Access",
                ">Stop Sharing<", ">Sign Out<", ">Booked<", ">Password<", "Skip to content", "Share 1 Transaction",
            ] {
                #expect(!all.contains(english), "\(tag): \(english) left in English")
            }
        }
    }

    @Test("the customer's Add to Apple Wallet and the one 404 page in the reader's language; each language its own bytes")
    func customerPages() async throws {
        let fixture = try await ServiceFixture.make()
        let link = CustomerOrderPageTests.link()
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            for (header, button, missing) in [
                ("fr-FR", "Ajouter à Apple Wallet", "Ce lien ne fonctionne pas"),
                ("ja-JP", "Apple Walletに追加", "このリンクは使用できません"),
                ("zh-Hans-CN", "添加到 Apple 钱包", "此链接无效"), ("en", "Add to Apple Wallet", "This Link Doesn’t Work"),
            ] {
                let page = try await client.executeRequest(
                    uri: link.path, method: .get, headers: [.acceptLanguage: header], body: nil)
                #expect(String(buffer: page.body).contains(">\(button)</a>"), "\(header)")
                let wrong = try await client.executeRequest(
                    uri: link.path + "0", method: .get, headers: [.acceptLanguage: header], body: nil)
                let tampered = try await client.executeRequest(
                    uri: CustomerOrderPageTests.link(lifetime: -10).path, method: .get, headers: [.acceptLanguage: header],
                    body: nil)
                #expect(wrong.status == .notFound && String(buffer: wrong.body).contains(missing), "\(header)")
                #expect(tampered.status == .notFound && tampered.body == wrong.body)
                #expect(wrong.headers[.vary] == "Accept-Language")
            }
        }
    }
}
