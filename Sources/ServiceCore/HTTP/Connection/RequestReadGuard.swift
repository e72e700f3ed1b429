import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Bounds how long a client may take to send one request, and how slowly.
///
/// Hummingbird's idle timeout sees a connection as busy from a request's head to its response, so
/// a client that sends its head and then a body a byte a second holds a connection (and a task
/// waiting for the body) forever. The guard measures each request from its first byte (or its
/// head, for a request that arrived in one read with the one before it) to the end of its body:
/// it closes the connection when the request is not complete after ``ServiceLimits/requestReadTimeout``,
/// or when fewer than ``ServiceLimits/minimumRequestRate`` bytes per second arrived over a
/// ``ServiceLimits/bodyRateWindow`` while it was being read.
///
/// Two handlers share one guard: ``RequestBytesHandler`` sees the bytes (first in the pipeline,
/// after TLS), ``RequestPartsHandler`` the parsed parts. All three live on the channel's event loop.
package final class RequestReadGuard {
    private let timeout: TimeAmount
    private let window: TimeAmount
    private let minimumBytesPerWindow: Int
    private var context: ChannelHandlerContext?
    private var reading = false
    private var requestStart = NIODeadline.uptimeNanoseconds(0)
    private var windowStart = NIODeadline.uptimeNanoseconds(0)
    private var bytesInWindow = 0
    /// One timer per connection, armed when a request needs it sooner than it would fire, and
    /// left running when a request ends: on a busy keep-alive connection it fires once a window,
    /// not twice scheduled and twice cancelled per request (which was a fifth of the middleware's
    /// cost). When it fires it judges the request being read, if any, and arms itself again only
    /// for one.
    private var timer: Scheduled<Void>?
    private var timerFiresAt = NIODeadline.uptimeNanoseconds(0)

    package init(limits: ServiceLimits) {
        timeout = TimeAmount(limits.requestReadTimeout)
        window = TimeAmount(limits.bodyRateWindow)
        let windowSeconds =
            Double(limits.bodyRateWindow.components.seconds)
            + Double(limits.bodyRateWindow.components.attoseconds) / 1e18
        minimumBytesPerWindow = Int(Double(limits.minimumRequestRate) * windowSeconds)
    }

    /// The context the guard closes: the bytes handler's.
    package func attach(_ context: ChannelHandlerContext) {
        self.context = context
    }

    /// Bytes of a request arrived.
    package func received(bytes: Int) {
        begin()
        bytesInWindow += bytes
    }

    /// A request is being read from now, unless one already is.
    package func begin() {
        guard !reading, context != nil else { return }
        reading = true
        requestStart = .now()
        windowStart = requestStart
        bytesInWindow = 0
        arm()
    }

    /// The next instant the request being read must be judged at: its deadline, or the end of
    /// its current window when the rate is checked.
    private var nextCheck: NIODeadline {
        let deadline = requestStart + timeout
        guard minimumBytesPerWindow > 0 else { return deadline }
        return min(deadline, windowStart + window)
    }

    /// Makes sure the timer fires by ``nextCheck``.
    private func arm() {
        guard let context else { return }
        let due = nextCheck
        if timer != nil, timerFiresAt <= due { return }
        timer?.cancel()
        timerFiresAt = due
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: due) { [self] in
            timer = nil
            check()
        }
    }

    /// Closes a request past its deadline or too slow over a finished window; otherwise waits for
    /// the next check, while a request is being read.
    private func check() {
        guard reading else { return }
        let now = NIODeadline.now()
        if now >= requestStart + timeout { return close() }
        if minimumBytesPerWindow > 0, now >= windowStart + window {
            if bytesInWindow < minimumBytesPerWindow { return close() }
            windowStart = now
            bytesInWindow = 0
        }
        arm()
    }

    /// The request's last part arrived.
    package func finish() {
        reading = false
    }

    package func cancelTimers() {
        timer?.cancel()
        timer = nil
    }

    private func close() {
        cancelTimers()
        reading = false
        context?.close(promise: nil)
    }
}

/// The guard's view of the bytes, first in the pipeline.
package final class RequestBytesHandler: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = ByteBuffer

    private let readGuard: RequestReadGuard

    package init(readGuard: RequestReadGuard) {
        self.readGuard = readGuard
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        readGuard.attach(context)
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        readGuard.cancelTimers()
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        readGuard.received(bytes: unwrapInboundIn(data).readableBytes)
        context.fireChannelRead(data)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        readGuard.cancelTimers()
        context.fireChannelInactive()
    }
}

/// The guard's view of the parsed request, after the HTTP codec; also ends connections.
///
/// When the server is done with a connection it closes its output half (after a request's
/// `Connection: close`, or a `400` for a request it cannot parse) and waits for the client to
/// close. A client that never does would hold the connection for good, so the whole connection
/// is closed ``lingerTime`` later: long enough for the client to read the last response.
///
/// A response that says `Connection: close` (a rate-limited device log, a request whose framing
/// is broken) ends the connection the same way once written, and stops reading: whatever the
/// client still sends is never parsed, which is what makes shedding a flood cheap.
package final class RequestPartsHandler: ChannelDuplexHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPRequestPart
    package typealias InboundOut = HTTPRequestPart
    package typealias OutboundIn = HTTPResponsePart
    package typealias OutboundOut = HTTPResponsePart

    package static let lingerTime = TimeAmount.seconds(2)

    private let readGuard: RequestReadGuard
    private var linger: Scheduled<Void>?
    private var closeAfterResponse = false

    package init(readGuard: RequestReadGuard) {
        self.readGuard = readGuard
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response):
            closeAfterResponse = response.headerFields[.connection]?.lowercased() == "close"
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            context.write(data, promise: promise)
            guard closeAfterResponse else { return }
            context.flush()
            readGuard.finish()
            context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            context.close(mode: .output, promise: nil)
            startLinger(context)
        }
    }

    private func startLinger(_ context: ChannelHandlerContext) {
        guard linger == nil else { return }
        linger = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: Self.lingerTime) {
            context.close(promise: nil)
        }
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: readGuard.begin()
        case .body: break
        case .end: readGuard.finish()
        }
        context.fireChannelRead(data)
    }

    package func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .output { startLinger(context) }
        context.close(mode: mode, promise: promise)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        linger?.cancel()
        linger = nil
        readGuard.cancelTimers()
        context.fireChannelInactive()
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        linger?.cancel()
        linger = nil
    }
}
