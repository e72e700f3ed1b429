import FinanceData
import Foundation
import HTTPTypes
import Hummingbird
import OrdersWebProtocol
import ServiceCore
import ServiceLifecycle
import Synchronization
import WalletConsent
import WalletOrders
import WalletPrimitives
import WalletWire

/// The three history streams over HTTP. A plain `GET` answers the next batch after `since` (a
/// history token; none: the current state as `inserted`) with `caughtUp: true` once nothing is
/// left — call again with `newToken` until then. With `Accept: text/event-stream` it is
/// `isMonitoring`: Server-Sent Events, one `changes` event per batch whose `id` is the batch's
/// token, so a reconnecting `EventSource` resumes from `Last-Event-ID`; a comment every 15 s keeps
/// proxies from closing it. Every poll checks the access token again; the stream ends — with an
/// event saying why (``StreamEnding``) and a properly finished response — when the token expires
/// or is revoked, the client's access is withdrawn, the data is restricted, or the server stops,
/// and its place is given back as soon as the client closes the connection.
struct HistoryRoutes: Sendable {
    typealias Context = ClientContext

    let wallet: WalletStore
    let streams: StreamLimiter

    static let keepAliveInterval: Duration = .seconds(15)

    struct Batch<Model: Encodable & Sendable>: Encodable {
        var stream: String
        var inserted: [Model]
        var updated: [Model]
        var deleted: [UUID]
        var newToken: HistoryToken
        var caughtUp: Bool
    }

    @Sendable func accounts(_ request: Request, context: Context) async throws -> Response {
        try await answer(request, context: context, stream: "accounts") { store, token, monitoring in
            store.accountHistory(since: token, isMonitoring: monitoring)
        }
    }

    @Sendable func balances(_ request: Request, context: Context) async throws -> Response {
        let account = try FinanceAPIRoutes.account(in: context)
        return try await answer(request, context: context, stream: "balances/\(account.uuidString)") { store, token, monitoring in
            store.accountBalanceHistory(forAccountID: account, since: token, isMonitoring: monitoring)
        }
    }

    @Sendable func transactions(_ request: Request, context: Context) async throws -> Response {
        let account = try FinanceAPIRoutes.account(in: context)
        return try await answer(request, context: context, stream: "transactions/\(account.uuidString)") {
            store, token, monitoring in
            store.transactionHistory(forAccountID: account, since: token, isMonitoring: monitoring)
        }
    }

    private func answer<Model: Codable & Sendable & Identifiable>(
        _ request: Request, context: Context, stream: String,
        _ history: @escaping @Sendable (FinanceStore, HistoryToken?, Bool) -> FinanceStore.History<Model>
    ) async throws -> Response where Model.ID == UUID {
        let store = wallet.financeStore(for: context.caller.snapshot)
        let parameters = FinanceQueryParameters(try PageForm.query(request))
        let resumeFrom = HTTPField.Name("Last-Event-ID").flatMap { request.headers[$0] }
        let since = try Self.token(resumeFrom ?? parameters.text("since"))
        let wantsEvents = request.headers[values: .accept].contains { $0.contains("text/event-stream") }
        guard wantsEvents else {
            let iterator = history(store, since, false).makeAsyncIterator()
            let batch: Batch<Model>
            if let changes = try await iterator.next() {
                batch = Batch(
                    stream: stream, inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted,
                    newToken: changes.newToken, caughtUp: false)
            } else {
                // Nothing after the token (which was checked): it stays the place to resume from.
                guard let since else { throw FinanceError.historyTokenInvalid }
                batch = Batch(stream: stream, inserted: [], updated: [], deleted: [], newToken: since, caughtUp: true)
            }
            return Response.json(status: .ok, body: batch, headers: FinanceAPIRoutes.noStore)
        }
        // Checked before the stream starts, so that a bad token or a refusal is a status, not an
        // event.
        _ = try await store.authorizationStatus()
        let first = history(store, since, false).makeAsyncIterator()
        let opening = try await first.next()
        let client = context.caller.client.rawValue
        guard streams.open(for: client) else { throw ServiceRequestError.rateLimited(retryAfter: 15) }
        let slot = StreamSlot(limiter: streams, client: client)
        let presented = AuthorizationHeader.credentials(scheme: "Bearer", in: request.headers[.authorization]) ?? ""
        let (wallet, consent) = (self.wallet, wallet.consent)
        let pollInterval = wallet.configuration.history.pollInterval
        let expiresAt = context.caller.expiresAt
        let clock = wallet.configuration.clock
        let logger = context.logger
        let body = ResponseBody { writer in
            defer { slot.release() }
            let ending = StreamEndingLatch()
            try await request.body.consumeWithInboundCloseHandler { _ in
                try await withGracefulShutdownHandler {
                    var token = since
                    var pending = opening
                    var lastWrite = ContinuousClock.now
                    while ending.reason == nil {
                        if let changes = pending {
                            let batch = Batch(
                                stream: stream, inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted,
                                newToken: changes.newToken, caughtUp: false)
                            try await writer.write(ByteBuffer(string: try Self.event(batch)))
                            token = changes.newToken
                            lastWrite = .now
                        } else {
                            if ContinuousClock.now - lastWrite >= Self.keepAliveInterval {
                                try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                                lastWrite = .now
                            }
                            try await Task.sleep(for: pollInterval)
                        }
                        guard clock() < expiresAt else {
                            ending.end(.expired)
                            break
                        }
                        // Every poll asks again who the stream serves and what it may see (one
                        // statement): a token revoked on any instance, access withdrawn or data
                        // restricted ends it before anything more is read for it.
                        do {
                            let snapshot = try await consent.accessSnapshot(accessToken: presented)
                            pending = try await history(wallet.financeStore(for: snapshot), token, false)
                                .makeAsyncIterator().next()
                        } catch is CancellationError {
                            throw CancellationError()
                        } catch {
                            // A revocation also ends the token's history cursors: a read that
                            // failed just after the check asks the token once more, so that a
                            // revocation is named as such.
                            let revoked = (try? await consent.authenticate(accessToken: presented)) == nil
                            ending.end(revoked ? StreamEnding(ConsentError.invalidToken) : StreamEnding(error))
                        }
                    }
                    if let event = ending.reason?.event {
                        try await writer.write(ByteBuffer(string: event))
                    }
                } onGracefulShutdown: {
                    ending.end(.shutdown)
                }
            } onInboundClosed: {
                ending.end(.clientLeft)
                slot.release()
            }
            if case .failed(let code, let message) = ending.reason {
                logger.error("history stream ended: \(code): \(message)")
            }
            if ending.reason != .clientLeft { try await writer.finish(nil) }
        }
        var headers = FinanceAPIRoutes.noStore
        headers[.contentType] = "text/event-stream"
        if let name = HTTPField.Name("X-Accel-Buffering") { headers[name] = "no" }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// A `changes` event: its id is the batch's token, its data the batch as one line of JSON.
    static func event<Model: Encodable & Sendable>(_ batch: Batch<Model>) throws -> String {
        let json = try WireFormat.line(batch)
        let id = try WireFormat.line(batch.newToken).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return "id: \(id)\nevent: changes\ndata: \(json)\n\n"
    }

    /// A token as `since` or `Last-Event-ID` carry it: the string `newToken` holds.
    static func token(_ text: String?) throws -> HistoryToken? {
        guard let text else { return nil }
        guard text.utf8.count <= 4_096, let data = try? JSONEncoder().encode(text),
            let token = try? JSONDecoder().decode(HistoryToken.self, from: data)
        else { throw FinanceError.historyTokenInvalid }
        return token
    }
}
