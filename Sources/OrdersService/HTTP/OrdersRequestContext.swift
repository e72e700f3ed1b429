import Hummingbird
import Logging

/// The request context of every route: Hummingbird's core storage (logger with the request id,
/// route parameters). Routes read bodies with their own limits (``ServiceLimits``), never through
/// the framework's decoder and its `maxUploadSize`.
public struct OrdersRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
    }
}
