import Testing
import WalletConsent
import WalletCore

@Suite("Authorization requests: the target first, then every other parameter")
struct AuthorizationRequestTests {
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    static func query(_ changes: [String: String?] = [:]) -> [(name: String, value: String)] {
        var values: [String: String] = [
            "response_type": "code", "client_id": "com.example.budget", "redirect_uri": "https://budget.example/cb",
            "state": "s1", "code_challenge": challenge, "code_challenge_method": "S256",
        ]
        for (name, value) in changes { values[name] = value }
        return values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    @Test("a complete request reads back as given")
    func complete() throws {
        let target = try AuthorizationRequest.target(in: Self.query())
        #expect(target == AuthorizationRequest.Target(clientID: "com.example.budget", redirectURI: "https://budget.example/cb"))
        let request = try AuthorizationRequest.parse(Self.query(), target: target, responseTypeRequired: true)
        #expect(request.state == "s1" && request.codeChallenge == Self.challenge)
    }

    @Test("no, a malformed or a repeated client or redirect URI is an unknown client (never redirected)")
    func target() {
        for query in [
            Self.query(["client_id": nil]), Self.query(["redirect_uri": nil]), Self.query(["client_id": "bad id"]),
            Self.query() + [("client_id", "com.example.other")],
        ] {
            #expect(throws: ConsentError.unknownClient) { try AuthorizationRequest.target(in: query) }
        }
    }

    @Test(
        "state, S256 and the challenge are required; response_type is code; nothing is sent twice",
        arguments: [
            ["state": nil], ["state": ""], ["state": "\u{7}"], ["code_challenge_method": "plain"], ["code_challenge_method": nil],
            ["code_challenge": nil], ["code_challenge": "short"], ["response_type": "token"], ["response_type": nil],
        ] as [[String: String?]])
    func invalid(change: [String: String?]) throws {
        let query = Self.query(change)
        let target = try AuthorizationRequest.target(in: query)
        #expect(throws: ConsentError.self) { try AuthorizationRequest.parse(query, target: target, responseTypeRequired: true) }
    }

    @Test("the picker takes a request without response_type; a parameter given twice is refused")
    func picker() throws {
        let query = Self.query(["response_type": nil])
        let target = try AuthorizationRequest.target(in: query)
        _ = try AuthorizationRequest.parse(query, target: target, responseTypeRequired: false)
        #expect(throws: ConsentError.self) {
            try AuthorizationRequest.parse(query + [("state", "s2")], target: target, responseTypeRequired: false)
        }
    }
}
