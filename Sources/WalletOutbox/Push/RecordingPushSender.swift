import Logging
import OrderStorage

/// The sender of a service started without APNs credentials: every push it would send is
/// logged (topic, device, order) and answered `.recorded`, so the outbox drains and the quick
/// start works offline.
public struct RecordingPushSender: PushSender {
    let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public func send(_ push: PendingPush) async -> PushDelivery {
        logger.notice(
            "would push (no APNs credentials)",
            metadata: [
                "apns.topic": .string(push.orderTypeIdentifier), "order": .string(push.orderIdentifier),
                "device": .string(push.deviceIdentifier),
            ])
        return .recorded
    }
}
