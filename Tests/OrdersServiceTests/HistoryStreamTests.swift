import FinanceData
import Foundation
import HTTPTypes
import StorageContract
import TestArchiveTable
import Testing
import WalletOrders
import WalletPostgres

/// History streams (Server-Sent Events) through the real `orders serve`, on SQLite and on
/// PostgreSQL, with two instances sharing the store: a stream asks on every poll whether its
/// access token still exists, so a revocation made through either instance ends it; every way a
/// stream ends sends its event and finishes the HTTP response (the chunked terminator); a stream's
/// place is given back as soon as its client closes the connection.
@Suite("orders serve: history streams end when their token does, say why, and give their place back", .serialized)
struct HistoryStreamTests {
    enum Backend: String, CustomStringConvertible, CaseIterable {
        case sqlite, postgres
        var description: String { rawValue }
    }

    /// SQLite always; PostgreSQL when the test cluster is there (CI requires it).
    static var backends: [Backend] { TestPostgres.url == nil ? [.sqlite] : [.sqlite, .postgres] }

    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let redirect = "https://stream.example/callback"

    /// A store with one account, a confidential client it is shared with, the client's
    /// credentials and a fresh code; and the `orders serve` arguments naming the store.
    struct Setup {
        let wallet: WalletStore
        let location: [String]
        let client: CreatedClient

        var basic: String {
            "Basic " + Data("\(client.client.id.rawValue):\(client.secret ?? "")".utf8).base64EncodedString()
        }

        /// A code for the client, as the consent sheet's Share gives one.
        func code() async throws -> String {
            let request = AuthorizationRequest(
                target: .init(clientID: client.client.id, redirectURI: HistoryStreamTests.redirect), state: "s",
                codeChallenge: PKCE.challenge(for: HistoryStreamTests.verifier))
            let answer = try await wallet.consent.share(
                [AccountGrant(accountID: BackgroundDeliveryServeTests.account(0))], answering: request)
            return try #require(URLComponents(string: answer.location)?.queryItems?.first { $0.name == "code" }?.value)
        }

        func serve(_ arguments: [String] = []) async throws -> ServeProcess {
            location[0] == "--store"
                ? try await ServeProcess.start(store: location[1], arguments: arguments)
                : try await ServeProcess.start(database: location[1], arguments: arguments)
        }
    }

    static func setup(_ backend: Backend) async throws -> Setup {
        let url = backend == .postgres ? try await TestPostgres.newDatabase() : nil
        let (wallet, location) = try await BackgroundDeliveryServeTests.wallet(accounts: 1, database: url)
        let client = try await wallet.consent.registerClient(name: "Streamer", redirectURIs: [redirect], isPublic: false)
        return Setup(wallet: wallet, location: [url == nil ? "--store" : "--database", location], client: client)
    }

    /// `POST /finance/token` through `client` with these form fields; the JSON answer and status.
    static func token(
        _ client: LoopbackClient, _ setup: Setup, _ fields: [(String, String)]
    ) async throws -> (status: HTTPResponse.Status, json: [String: Any]) {
        let body = fields.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        let answer = try await client.send(
            .post, "/finance/token",
            headers: [.authorization: setup.basic, .contentType: "application/x-www-form-urlencoded"], body: Data(body.utf8))
        return (answer.status, (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]) ?? [:])
    }

    /// Exchanges a new code through `client`: the tokens, and the code (to replay).
    static func exchange(_ client: LoopbackClient, _ setup: Setup) async throws -> (access: String, refresh: String, code: String)
    {
        let code = try await setup.code()
        let answer = try await token(
            client, setup,
            [("grant_type", "authorization_code"), ("code", code), ("code_verifier", verifier), ("redirect_uri", redirect)])
        #expect(answer.status == .ok)
        return (
            try #require(answer.json["access_token"] as? String), try #require(answer.json["refresh_token"] as? String), code
        )
    }

    /// A transaction stream opened on `port` with `token`, read up to its first event.
    static func openStream(port: Int, token: String) async throws -> RawConnection {
        let stream = try RawConnection(port: port, timeout: 20)
        stream.send(
            "GET /finance/v1/history/accounts/\(BackgroundDeliveryServeTests.account(0))/transactions HTTP/1.1\r\n"
                + "Host: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nAccept: text/event-stream\r\n\r\n")
        let opening = try #require(await stream.read(until: "event: changes\n"))
        #expect(opening.hasPrefix("HTTP/1.1 200"))
        return stream
    }

    /// What a stream sends until its response is finished: the rest of it, up to the chunked
    /// terminator — nil when the connection closed without one, or it did not come within 20 s
    /// (the stream polls every 250 ms; keep-alive comments alone do not count).
    static func rest(of stream: RawConnection) async -> String? {
        await stream.read(until: "\r\n0\r\n\r\n", deadline: .now + .seconds(20))
    }

    /// A stream opened on one instance with tokens exchanged through another, then `revoke` (given
    /// the setup, a client of the other instance and the tokens): the rest of the stream, which
    /// must end with `event: revoked` and a finished response.
    static func streamAfter(
        _ backend: Backend, revoke: (Setup, LoopbackClient, (access: String, refresh: String, code: String)) async throws -> Void
    ) async throws -> (rest: String?, setup: Setup) {
        let setup = try await Self.setup(backend)
        let (a, b) = (try await setup.serve(), try await setup.serve())
        defer {
            a.stop()
            b.stop()
        }
        let viaB = LoopbackClient(port: b.port)
        defer { Task { try? await viaB.shutdown() } }
        let tokens = try await Self.exchange(viaB, setup)
        let stream = try await Self.openStream(port: a.port, token: tokens.access)
        try await revoke(setup, viaB, tokens)
        return (await Self.rest(of: stream), setup)
    }

    @Test(
        "a refresh token reused through the other instance ends the stream: event: revoked, a finished response, nothing after",
        arguments: backends)
    func refreshReuse(_ backend: Backend) async throws {
        let late = FinanceFixtureRows.transaction(in: BackgroundDeliveryServeTests.account(0), at: Date())
        let (rest, _) = try await Self.streamAfter(backend) { setup, viaB, tokens in
            // Rotated once, then the old refresh token again: its whole family ends (RFC 9700 §4.14).
            let refresh = [("grant_type", "refresh_token"), ("refresh_token", tokens.refresh)]
            #expect(try await Self.token(viaB, setup, refresh).status == .ok)
            #expect(try await Self.token(viaB, setup, refresh).status == .badRequest)
            // Imported after the revocation: never sent on the revoked stream.
            _ = try await setup.wallet.apply(FinanceBatch(transactions: [late]))
        }
        let ended = try #require(rest, "the response was not finished")
        #expect(ended.contains("event: revoked\ndata: {\"code\":\"consent.invalidToken\""))
        #expect(!ended.contains(late.id.uuidString))
    }

    @Test("a code replayed through the other instance ends the stream of its first exchange", arguments: backends)
    func codeReplay(_ backend: Backend) async throws {
        let (rest, _) = try await Self.streamAfter(backend) { setup, viaB, tokens in
            let replay = try await Self.token(
                viaB, setup,
                [
                    ("grant_type", "authorization_code"), ("code", tokens.code), ("code_verifier", Self.verifier),
                    ("redirect_uri", Self.redirect),
                ])
            #expect(replay.status == .badRequest)
        }
        #expect(try #require(rest, "the response was not finished").contains("event: revoked"), "\((rest ?? "").suffix(400))")
    }

    @Test(
        "revoking the client (orders finance clients revoke) ends the stream with its event and a finished response",
        arguments: backends)
    func clientRevoked(_ backend: Backend) async throws {
        let (rest, _) = try await Self.streamAfter(backend) { setup, _, _ in
            // What `orders finance clients revoke` does.
            let revoked = try await setup.wallet.consent.revokeClient(setup.client.client.id)
            #expect(revoked)
        }
        #expect(try #require(rest, "the response was not finished").contains("event: revoked"), "\((rest ?? "").suffix(400))")
    }

    @Test(
        "a stream's place is given back when its client leaves, not at the next keep-alive; a full server answers 429 with Retry-After",
        arguments: backends)
    func placesGivenBack(_ backend: Backend) async throws {
        let setup = try await Self.setup(backend)
        let server = try await setup.serve(["--max-history-streams", "2"])
        defer { server.stop() }
        let client = LoopbackClient(port: server.port)
        let (first, second) = (try await Self.exchange(client, setup), try await Self.exchange(client, setup))
        var open = [try await Self.openStream(port: server.port, token: first.access)]
        open.append(try await Self.openStream(port: server.port, token: second.access))
        // The server holds two: a third is refused.
        let refused = try await client.send(
            .get, "/finance/v1/history/accounts/\(BackgroundDeliveryServeTests.account(0))/transactions",
            headers: [.authorization: "Bearer \(first.access)", .accept: "text/event-stream"], body: nil)
        #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] != nil)
        // The client leaves both: its places come back at once.
        for stream in open { stream.close() }
        open = []
        let reopened = ContinuousClock.now
        var status: HTTPResponse.Status = .tooManyRequests
        while status == .tooManyRequests, ContinuousClock.now - reopened < .seconds(10) {
            let stream = try RawConnection(port: server.port)
            stream.send(
                "GET /finance/v1/history/accounts/\(BackgroundDeliveryServeTests.account(0))/transactions HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\nAuthorization: Bearer \(first.access)\r\nAccept: text/event-stream\r\n\r\n")
            let head = await stream.read(until: "\r\n\r\n") ?? ""
            status = head.hasPrefix("HTTP/1.1 200") ? .ok : .tooManyRequests
            if status == .ok { open.append(stream) } else { try await Task.sleep(for: .milliseconds(50)) }
        }
        let waited = ContinuousClock.now - reopened
        #expect(status == .ok && waited < .seconds(2), "reopened after \(waited)")
        for stream in open { stream.close() }
        try? await client.shutdown()
    }

    @Test(
        "a restriction, and the server stopping, end the stream with their events and a finished response",
        arguments: backends)
    func restrictionAndShutdown(_ backend: Backend) async throws {
        let setup = try await Self.setup(backend)
        let server = try await setup.serve()
        let client = LoopbackClient(port: server.port)
        let first = try await Self.exchange(client, setup)
        let restricted = try await Self.openStream(port: server.port, token: first.access)
        try await setup.wallet.setRestricted(.financialData, true)
        let rest = try #require(await Self.rest(of: restricted), "the response was not finished")
        #expect(rest.contains("event: restricted\ndata: {\"code\":\"finance.dataRestricted\""))
        try await setup.wallet.setRestricted(.financialData, false)

        let second = try await Self.exchange(client, setup)
        let stopping = try await Self.openStream(port: server.port, token: second.access)
        let stopped = Task { await server.stop(patience: 30) }
        let last = try #require(await Self.rest(of: stopping), "the response was not finished")
        #expect(last.contains("event: shutdown\ndata: {\"message\""))
        #expect(await stopped.value == 0)
        try? await client.shutdown()
    }
}
