import FinanceData
import Foundation
import ServiceCore
import Synchronization
import WalletConsent
import WalletCore
import WalletPrimitives
import WalletWire

/// Why a history stream (Server-Sent Events) ends, and the last event it sends before the HTTP
/// response is finished properly (the chunked terminator), so that a client can tell each from
/// a network fault: every way but the client's own leaving sends one.
enum StreamEnding: Equatable, Sendable {
    /// The access token's lifetime is over: reconnect with a new one.
    case expired
    /// The token was revoked (a refresh token reused, a code replayed, the client revoked, all
    /// sharing stopped) or the client's authorization withdrawn: do not reconnect with it.
    case revoked(code: String, message: String)
    /// Financial data is restricted: reconnect later.
    case restricted
    /// The server is stopping: reconnect (with `Last-Event-ID`) to another instance or later.
    case shutdown
    /// Any other failure (the store unavailable, the token behind compaction): its code says.
    case failed(code: String, message: String)
    /// The client closed the connection: nothing is sent.
    case clientLeft

    /// What a refusal of the stream's re-check or read means for the stream.
    init(_ error: any Error) {
        switch error {
        case ConsentError.invalidToken:
            self = .revoked(code: "consent.invalidToken", message: "the access token was revoked")
        case let error as FinanceAccessError:
            self = .revoked(code: error.code, message: error.description)
        case FinanceError.dataRestricted:
            self = .restricted
        case let error as any WalletError:
            self = .failed(code: error.code, message: error.message)
        default:
            self = .failed(code: "internal", message: "the stream failed; the log has the details")
        }
    }

    /// The event, or nil for a client that left.
    var event: String? {
        let (name, code, message): (String, String?, String)
        switch self {
        case .expired:
            (name, code, message) = ("expired", "consent.invalidToken", "the access token expired; reconnect with a new one")
        case .revoked(let why, let text):
            (name, code, message) = ("revoked", why, text)
        case .restricted:
            (name, code, message) = ("restricted", "finance.dataRestricted", "financial data is restricted; reconnect later")
        case .shutdown:
            (name, code, message) = ("shutdown", nil, "the server is stopping; reconnect with Last-Event-ID")
        case .failed(let why, let text):
            (name, code, message) = ("error", why, text)
        case .clientLeft:
            return nil
        }
        let data = (try? WireFormat.line(Payload(code: code, message: message))) ?? "{}"
        return "event: \(name)\ndata: \(data)\n\n"
    }

    /// `code` is an error code of docs/error-codes.md; none for a shutdown, which is no error.
    private struct Payload: Encodable {
        var code: String?
        var message: String
    }
}

/// A history stream's place among the streams the server holds (``StreamLimiter``), given back
/// once: when the stream ends, or as soon as its client closes the connection.
final class StreamSlot: Sendable {
    private let limiter: StreamLimiter
    private let client: String
    private let held = Mutex(true)

    init(limiter: StreamLimiter, client: String) {
        self.limiter = limiter
        self.client = client
    }

    func release() {
        let wasHeld = held.withLock { held in
            defer { held = false }
            return held
        }
        if wasHeld { limiter.close(for: client) }
    }
}

/// The first reason a stream ends, set from wherever it is learned (the loop, the server's
/// shutdown, the connection's close).
final class StreamEndingLatch: Sendable {
    private let value = Mutex<StreamEnding?>(nil)

    var reason: StreamEnding? { value.withLock { $0 } }

    /// Keeps the first reason given.
    func end(_ reason: StreamEnding) {
        value.withLock { $0 = $0 ?? reason }
    }
}
