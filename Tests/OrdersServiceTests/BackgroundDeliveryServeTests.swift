import FinanceData
import Foundation
import HTTPTypes
import Logging
import StorageContract
import TestArchiveTable
import Testing
@_spi(Testing) import WalletOrders
import WalletOutbox
import WalletPostgres

/// Background delivery through the real `orders serve`: the registration API's documented
/// answers, server-side request forgery refused, a signed delivery that the docs' verifier
/// accepts, `kill -9` at random points, and two instances on one PostgreSQL database.
@Suite("orders serve: background delivery (registration, SSRF, kill -9, two instances)")
struct BackgroundDeliveryServeTests {
    static let path = "/finance/v1/background-delivery"

    /// A wallet on a new SQLite store (or the PostgreSQL database at `url`) with `accounts`
    /// accounts, whose own registrations may point at loopback (the test's receivers).
    static func wallet(accounts: Int = 2, database url: PostgresDatabaseURL? = nil) async throws -> (WalletStore, String) {
        var logger = Logger(label: "test.delivery")
        logger.logLevel = .critical
        let configuration = WalletConfiguration(
            backgroundDelivery: BackgroundDeliveryPolicy(targets: WebhookTargets(allowsPrivateAddresses: true)), logger: logger)
        let wallet: WalletStore
        let location: String
        if let url {
            wallet = WalletStore(backend: try await PostgresBackend.open(url), configuration: configuration)
            location = url.redacted
        } else {
            let directory = try TemporaryDirectory.make("delivery-serve")
            location = directory.appendingPathComponent("store.sqlite").path
            wallet = try WalletStore(path: location, configuration: configuration)
        }
        let ids = (0..<accounts).map(account(_:))
        _ = try await wallet.apply(
            FinanceBatch(
                accounts: ids.map { id in
                    .asset(
                        AssetAccount(
                            id: id, displayName: "Account \(id.uuidString.prefix(4))", institutionName: "Example Bank",
                            currencyCode: "EUR", openingDate: Date(timeIntervalSince1970: 1_700_000_000)))
                }))
        return (wallet, location)
    }

    /// The `index`th account's id, the same in every test.
    static func account(_ index: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index)) ?? UUID()
    }

    /// A client authorized for account `index`, with an access token for the data API.
    static func client(_ index: Int, of wallet: WalletStore) async throws -> (id: ClientIdentifier, token: String) {
        let redirect = "https://client\(index).example/callback"
        let created = try await wallet.consent.registerClient(name: "Client \(index)", redirectURIs: [redirect], isPublic: false)
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let request = AuthorizationRequest(
            target: .init(clientID: created.client.id, redirectURI: redirect), state: "s",
            codeChallenge: PKCE.challenge(for: verifier))
        let answer = try await wallet.consent.share([AccountGrant(accountID: account(index))], answering: request)
        let code = try #require(URLComponents(string: answer.location)?.queryItems?.first { $0.name == "code" }?.value)
        let tokens = try await wallet.consent.exchange(
            CodeRedemption(
                code: code, codeVerifier: verifier, redirectURI: redirect,
                client: ClientCredentials(id: created.client.id.rawValue, secret: created.secret)))
        return (created.client.id, tokens.accessToken)
    }

    /// A transaction in account `index`, as a new import.
    static func transaction(in index: Int, of wallet: WalletStore) async throws {
        _ = try await wallet.apply(
            FinanceBatch(transactions: [FinanceFixtureRows.transaction(in: account(index), at: Date())]))
    }

    static func put(_ client: LoopbackClient, token: String, _ body: String) async throws -> ServiceResponse {
        try await client.send(
            .put, path, headers: [.authorization: "Bearer \(token)", .contentType: "application/json"], body: Data(body.utf8))
    }

    static func registration(url: String, types: [String] = ["transactions"], frequency: String = "hourly") -> String {
        let list = types.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"types":[\#(list)],"frequency":"\#(frequency)","url":"\#(url)"}"#
    }

    static func error(_ response: ServiceResponse) -> (code: String, path: String?) {
        let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
        let error = json?["error"] as? [String: Any]
        return (error?["code"] as? String ?? "", error?["path"] as? String)
    }

    @Test("the registration API answers as documented; addresses into the server's networks are refused")
    func registrationContract() async throws {
        let (wallet, store) = try await Self.wallet()
        let (_, token) = try await Self.client(0, of: wallet)
        let server = try await ServeProcess.start(store: store, arguments: ["--max-delivery-endpoints", "2"])
        defer { server.stop() }
        let http = LoopbackClient(port: server.port)
        defer { Task { try? await http.shutdown() } }

        let created = try await Self.put(http, token: token, Self.registration(url: "https://93.184.216.34/hook"))
        #expect(created.status == .created)
        let endpoint = try #require(
            (try JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["endpoint"] as? [String: Any])
        #expect((endpoint["secret"] as? String)?.hasPrefix("wds_") == true)
        #expect(endpoint["types"] as? [String: String] == ["transactions": "hourly"] && endpoint["state"] as? String == "active")
        #expect(created.headers[.cacheControl] == "no-store")

        let again = try await Self.put(
            http, token: token, Self.registration(url: "https://93.184.216.34/hook", types: ["accounts"], frequency: "daily"))
        #expect(again.status == .ok)
        let updated = try #require(
            (try JSONSerialization.jsonObject(with: again.body) as? [String: Any])?["endpoint"] as? [String: Any])
        #expect(updated["secret"] is NSNull)
        #expect(updated["types"] as? [String: String] == ["transactions": "hourly", "accounts": "daily"])
        #expect(try await Self.put(http, token: token, Self.registration(url: "https://93.184.216.34/other")).status == .created)
        let third = try await Self.put(http, token: token, Self.registration(url: "https://93.184.216.34/third"))
        #expect(third.status == .conflict && Self.error(third).code == "delivery.tooManyEndpoints")

        // Server-side request forgery: loopback, private, link-local, metadata, and names for them.
        for url in [
            "https://127.0.0.1/hook", "https://[::1]/hook", "https://169.254.169.254/latest/meta-data/", "https://localhost/hook",
            "https://10.0.0.1/hook", "https://192.168.1.20/hook", "https://[fd00:ec2::254]/", "https://0.0.0.0/hook",
            "https://[::ffff:127.0.0.1]/hook", "https://2130706433/hook",
        ] {
            let refused = try await Self.put(http, token: token, Self.registration(url: url))
            #expect(refused.status == .badRequest, "\(url)")
            #expect(["delivery.urlNotAllowed", "delivery.invalidURL"].contains(Self.error(refused).code), "\(url)")
        }
        let plain = try await Self.put(http, token: token, Self.registration(url: "http://93.184.216.34/hook"))
        #expect(Self.error(plain).code == "delivery.invalidURL" && Self.error(plain).path == "url")

        // Malformed registrations name where.
        let malformed: [(String, String?)] = [
            ("{", nil), (#"{"types":"transactions","frequency":"hourly","url":"https://93.184.216.34/"}"#, "types"),
            (#"{"types":["transactions","trades"],"frequency":"hourly","url":"https://93.184.216.34/"}"#, "types[1]"),
            (#"{"types":["transactions"],"frequency":"often","url":"https://93.184.216.34/"}"#, "frequency"),
            (#"{"types":[],"frequency":"hourly","url":"https://93.184.216.34/"}"#, "types"),
            (#"{"types":["transactions"],"frequency":"hourly"}"#, "url"),
            (#"{"types":["transactions"],"frequency":"hourly","url":"https://93.184.216.34/","extra":1}"#, "extra"),
        ]
        for (body, path) in malformed {
            let answer = try await Self.put(http, token: token, body)
            #expect(answer.status == .badRequest && Self.error(answer).code == "request.malformedBody", "\(body)")
            if let path { #expect(Self.error(answer).path == path, "\(body)") }
        }
        let large = try await Self.put(http, token: token, String(repeating: " ", count: 5_000) + "{}")
        #expect(large.status == .contentTooLarge)
        let anonymous = try await http.send(.get, Self.path, headers: [:], body: nil)
        #expect(anonymous.status == .unauthorized && Self.error(anonymous).code == "consent.invalidToken")

        // State, then disabling one type, then everything.
        let listed = try await http.send(.get, Self.path, headers: [.authorization: "Bearer \(token)"], body: nil)
        let endpoints = try #require(
            (try JSONSerialization.jsonObject(with: listed.body) as? [String: Any])?["endpoints"] as? [[String: Any]])
        #expect(endpoints.count == 2 && endpoints.allSatisfy { $0["secret"] is NSNull })
        let badTypes = try await http.send(
            .delete, Self.path + "?types=transactions,trades", headers: [.authorization: "Bearer \(token)"], body: nil)
        #expect(badTypes.status == .badRequest && Self.error(badTypes).code == "request.invalidParameter")
        let noTypes = try await http.send(.delete, Self.path + "?types=", headers: [.authorization: "Bearer \(token)"], body: nil)
        #expect(noTypes.status == .badRequest && Self.error(noTypes).code == "delivery.noDataTypes", "types= is not everything")
        let lessened = try await http.send(
            .delete, Self.path + "?types=transactions", headers: [.authorization: "Bearer \(token)"], body: nil)
        let left = try #require(
            (try JSONSerialization.jsonObject(with: lessened.body) as? [String: Any])?["endpoints"] as? [[String: Any]])
        #expect(left.count == 1 && left.first?["types"] as? [String: String] == ["accounts": "daily"])
        let cleared = try await http.send(.delete, Self.path, headers: [.authorization: "Bearer \(token)"], body: nil)
        #expect(cleared.status == .ok && cleared.text == #"{"endpoints":[]}"#)

        // Revoked: the token is gone with the access.
        try await wallet.revoke(try await Self.clientID(of: token, in: wallet))
        #expect(
            try await Self.put(http, token: token, Self.registration(url: "https://93.184.216.34/hook")).status == .unauthorized)
    }

    static func clientID(of token: String, in wallet: WalletStore) async throws -> ClientIdentifier {
        try await wallet.consent.authenticate(accessToken: token).client
    }

    @Test("without financial data the deployment refuses registration (501)")
    func unavailable() async throws {
        let (wallet, store) = try await Self.wallet()
        let (_, token) = try await Self.client(0, of: wallet)
        let server = try await ServeProcess.start(store: store, environment: ["ORDERS_DATA_TYPES": "orders"])
        defer { server.stop() }
        let http = LoopbackClient(port: server.port)
        defer { Task { try? await http.shutdown() } }
        let answer = try await Self.put(http, token: token, Self.registration(url: "https://93.184.216.34/hook"))
        #expect(answer.status == .notImplemented && Self.error(answer).code == "access.dataTypeUnavailable")
    }

    @Test("a change reaches the receiver signed, the docs' Python verifier accepts it, and a redirect is not followed")
    func endToEnd() async throws {
        let (wallet, store) = try await Self.wallet()
        let (_, token) = try await Self.client(0, of: wallet)
        let server = try await ServeProcess.start(store: store, arguments: ["--allow-private-webhooks"])
        defer { server.stop() }
        let http = LoopbackClient(port: server.port)
        defer { Task { try? await http.shutdown() } }
        let receiver = WebhookReceiver()
        let elsewhere = WebhookReceiver()
        let redirecting = WebhookReceiver()
        try await elsewhere.run { elsewherePort in
            try await redirecting.run { redirectingPort in
                try await receiver.run { port in
                    let created = try await Self.put(
                        http, token: token, Self.registration(url: "http://127.0.0.1:\(port)/wallet"))
                    let secret = try #require(
                        ((try JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["endpoint"]
                            as? [String: Any])?["secret"] as? String)
                    receiver.trust(secret)
                    redirecting.answer(.redirect("http://127.0.0.1:\(elsewherePort)/stolen"))
                    #expect(
                        try await Self.put(http, token: token, Self.registration(url: "http://127.0.0.1:\(redirectingPort)/r"))
                            .status == .created)

                    try await Self.transaction(in: 0, of: wallet)
                    let delivery = try #require(await receiver.wait(for: 1).first)
                    #expect(delivery.signatureValid && delivery.types == ["transactions"] && delivery.path == "/wallet")
                    await #expect(try Self.pythonVerifier(delivery, secret: secret) == "True")
                    await #expect(try Self.pythonVerifier(delivery, secret: secret + "x") == "False")

                    #expect(await redirecting.wait(for: 1).count == 1)
                    let failed = try await Self.waitForEndpoints(http, token: token) { endpoints in
                        endpoints.contains { ($0["lastFailure"] as? [String: Any])?["reason"] as? String != nil }
                    }
                    let reasons = failed.compactMap { ($0["lastFailure"] as? [String: Any])?["reason"] as? String }
                    #expect(reasons == ["HTTP 302: redirects are not followed"])
                    #expect(elsewhere.received.isEmpty)
                }
            }
        }
        // The outcome reached the log without the secret or the URL's path.
        #expect(server.standardError.contains("background delivery delivered"))
        #expect(!server.standardError.contains("wds_"))
    }

    /// Runs the Python verifier of docs/background-delivery.md, as written, on a delivery.
    static func pythonVerifier(_ delivery: WebhookReceiver.Delivery, secret: String) async throws -> String {
        let doc = try String(
            contentsOf: TestArchiveTable.packageRoot.appendingPathComponent("docs/background-delivery.md"), encoding: .utf8)
        // The block that defines the verifier (the first one shows a library's call).
        let definition = try #require(doc.range(of: "def verify("))
        let start = try #require(doc.range(of: "```python\n", options: .backwards, range: doc.startIndex..<definition.lowerBound))
        let end = try #require(doc.range(of: "```", range: start.upperBound..<doc.endIndex))
        let folder = try TemporaryDirectory.make("verifier")
        let script = folder.appendingPathComponent("verify.py")
        let header = delivery.headers.first { $0.name.canonicalName == "wallet-signature" }?.value ?? ""
        try Data(
            (String(doc[start.upperBound..<end.lowerBound])
                + "\nimport sys\nprint(verify(sys.argv[1], open(sys.argv[2], 'rb').read(), sys.argv[3]))\n").utf8
        ).write(to: script)
        let body = folder.appendingPathComponent("body")
        try delivery.body.write(to: body)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, header, body.path, secret]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        await process.waitUntilExit()  // one short line: it fits the pipe's buffer
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// GET until `condition` holds for the endpoints (30 s at most).
    static func waitForEndpoints(
        _ http: LoopbackClient, token: String, until condition: ([[String: Any]]) -> Bool
    ) async throws -> [[String: Any]] {
        let end = ContinuousClock.now + .seconds(30)
        while true {
            let answer = try await http.send(.get, path, headers: [.authorization: "Bearer \(token)"], body: nil)
            let endpoints =
                (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["endpoints"] as? [[String: Any]] ?? []
            if condition(endpoints) || ContinuousClock.now > end { return endpoints }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test(
        "kill -9 at seeded random points between claim, send and commit, 30 times: every change wakes its client, duplicates carry a seen id"
    )
    func killed() async throws {
        let rounds = 30
        let (wallet, store) = try await Self.wallet(accounts: rounds)
        let receiver = WebhookReceiver()
        try await receiver.run { port in
            var random = SplitMix64(state: 26)
            var (unsent, sent, duplicates) = (0, 0, 0)
            for round in 0..<rounds {
                try await wallet.grant([AccountGrant(accountID: Self.account(round))], to: Self.clientName(round))
                let enabled = try await wallet.financeStore(for: Self.clientName(round)).enableBackgroundDelivery(
                    for: [.transactions], frequency: .hourly, url: "http://127.0.0.1:\(port)/\(round)")
                receiver.trust(try #require(enabled.secret))
            }
            for round in 0..<rounds {
                let server = try await ServeProcess.start(
                    store: store, arguments: ["--allow-private-webhooks", "--outbox-lease", "2"])
                // Three kinds of kill, drawn from the seed: at a random moment within three seconds
                // of the import (before the claim, or between claim and send); while the receiver
                // holds the request (sent, not answered); just after it answered (answered, maybe
                // not recorded).
                let kind = Int.random(in: 0..<3, using: &random)
                let delay = Int.random(in: 0..<3_000, using: &random)
                let afterAnswer = Int.random(in: 0..<30, using: &random)
                receiver.answer(kind == 1 ? .delay(.milliseconds(500)) : .status(200))
                try await Self.transaction(in: round, of: wallet)
                switch kind {
                case 0: try await Task.sleep(for: .milliseconds(delay))
                case 1: await receiver.wait(forPath: "/\(round)")
                default:
                    await receiver.wait(forPath: "/\(round)")
                    try await Task.sleep(for: .milliseconds(afterAnswer))
                }
                await server.stop(signal: SIGKILL)
                let before = receiver.received.filter { $0.path == "/\(round)" }.count
                let restarted = try await ServeProcess.start(
                    store: store, arguments: ["--allow-private-webhooks", "--outbox-lease", "2"])
                let endpoint = try await Self.waitUntilDelivered(round, wallet: wallet)
                await restarted.stop()
                let seen = receiver.received.filter { $0.path == "/\(round)" }
                #expect(!seen.isEmpty, "round \(round): kill of kind \(kind)")
                #expect(seen.allSatisfy { $0.signatureValid })
                #expect(Set(seen.map(\.deliveryID)) == [endpoint.lastDelivery?.deliveryID.uuidString ?? "?"], "round \(round)")
                if before == 0 { unsent += 1 } else { sent += 1 }
                duplicates += max(0, seen.count - 1)
            }
            print(
                "kill -9, \(rounds) rounds: killed before a send \(unsent), after one \(sent); duplicates received \(duplicates)")
        }
    }

    static func clientName(_ round: Int) -> ClientIdentifier {
        ClientIdentifier(rawValue: "com.example.killed\(round)") ?? "com.example.killed"
    }

    /// The round's endpoint once its delivery is recorded (60 s at most).
    static func waitUntilDelivered(_ round: Int, wallet: WalletStore) async throws -> DeliveryEndpoint {
        let end = ContinuousClock.now + .seconds(60)
        while true {
            let endpoint = try #require(try await wallet.financeStore(for: clientName(round)).backgroundDeliveryEndpoints().first)
            if endpoint.lastDelivery != nil || ContinuousClock.now > end { return endpoint }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test(
        "two instances on one PostgreSQL database send each due delivery exactly once",
        .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipNote)))
    func twoInstances() async throws {
        let clients = 20
        let url = try await TestPostgres.newDatabase()
        let (wallet, _) = try await Self.wallet(accounts: clients, database: url)
        let receiver = WebhookReceiver()
        try await receiver.run { port in
            for index in 0..<clients {
                try await wallet.grant([AccountGrant(accountID: Self.account(index))], to: Self.clientName(index))
                let enabled = try await wallet.financeStore(for: Self.clientName(index)).enableBackgroundDelivery(
                    for: [.transactions], frequency: .hourly, url: "http://127.0.0.1:\(port)/\(index)")
                receiver.trust(try #require(enabled.secret))
            }
            let a = try await ServeProcess.start(database: url.redacted, arguments: ["--allow-private-webhooks"])
            let b = try await ServeProcess.start(database: url.redacted, arguments: ["--allow-private-webhooks"])
            defer {
                a.stop()
                b.stop()
            }
            _ = try await wallet.apply(
                FinanceBatch(
                    transactions: (0..<clients).map { FinanceFixtureRows.transaction(in: Self.account($0), at: Date()) }))
            await receiver.wait(for: clients)
            for index in 0..<clients { _ = try await Self.waitUntilDelivered(index, wallet: wallet) }
            // Every delivery recorded and gone from the outbox: none can be sent again.
            #expect(try await wallet.backend.backgroundDelivery.pendingDeliveryCount() == 0)
            let all = receiver.received
            #expect(all.count == clients, "each delivery once")
            #expect(Set(all.map(\.path)).count == clients && Set(all.map(\.deliveryID)).count == clients)
            #expect(all.allSatisfy { $0.signatureValid })
        }
        try await wallet.backend.close()
    }
}
