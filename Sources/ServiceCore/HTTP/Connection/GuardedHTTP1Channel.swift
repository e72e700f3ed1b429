import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1.1 channel with a ``RequestReadGuard`` around it: its bytes handler goes
/// first in the pipeline (Hummingbird's own extra handlers only see parsed parts, too late to
/// time a request head that trickles in), its parts handler after the codec.
package struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    package typealias Value = HTTP1Channel.Value

    package let base: HTTP1Channel
    package let limits: ServiceLimits

    package init(responder: @escaping HTTPChannelHandler.Responder, idleTimeout: Duration, limits: ServiceLimits) {
        self.limits = limits
        base = HTTP1Channel(
            responder: responder,
            configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [], idleTimeout: TimeAmount(idleTimeout)))
    }

    package var responder: HTTPChannelHandler.Responder { base.responder }

    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let readGuard = RequestReadGuard(limits: limits)
        // Hummingbird asks for its extra handlers in `setup`, on the channel's event loop.
        let bound = NIOLoopBound(readGuard, eventLoop: channel.eventLoop)
        let configured = HTTP1Channel(
            responder: base.responder,
            configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [RequestPartsHandler(readGuard: bound.value)],
                idleTimeout: base.configuration.idleTimeout))
        do {
            try channel.pipeline.syncOperations.addHandler(RequestBytesHandler(readGuard: readGuard))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return configured.setup(channel: channel, logger: logger)
    }

    package func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
