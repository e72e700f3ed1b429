import OrderStorage

/// What became of one push.
public enum PushDelivery: Sendable, Hashable {
    /// APNs accepted it.
    case delivered
    /// Logged instead of sent: the service has no APNs credentials.
    case recorded
    /// APNs says the token is gone (`410`, `BadDeviceToken`, `Unregistered`): the
    /// registrations holding it are removed.
    case unregistered(reason: String)
    /// Try again later (`429`, `5xx`, a network error, an expired provider token).
    case retry(reason: String)
    /// APNs refused it for good (a wrong topic, a bad request): dropped and logged.
    case dropped(reason: String)
}

/// Sends one push to one device. ``APNsClient`` talks to APNs; ``RecordingPushSender`` only
/// logs, for a service without credentials.
public protocol PushSender: Sendable {
    func send(_ push: PendingPush) async -> PushDelivery
}
