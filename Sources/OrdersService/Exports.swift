// The core's public types — ServiceLimits, ServiceMetrics, OrdersRequestContext, HTTPStatusTable —
// are part of OrdersService's API: `import OrdersService` is enough to configure and extend it.
@_exported import ServiceCore
