import Hummingbird
import Logging

/// The request context of every route: Hummingbird's core storage (logger with the request id,
/// route parameters). Bodies are read with explicit limits per route (``ServiceLimits``), so the
/// framework's own upload limit is only a backstop at the largest of them.
public struct OrdersRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
    }

    public var maxUploadSize: Int { ServiceLimits.default.archiveBodySize }
}
