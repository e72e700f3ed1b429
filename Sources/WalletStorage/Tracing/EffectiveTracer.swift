import Tracing

/// Which tracer a component given `tracer` uses, decided once where it is built: `tracer`, else
/// the one bootstrapped with `InstrumentationSystem`; nil when that is the no-op tracer, so that
/// the component makes no span and pays nothing (the storage executor is not wrapped, the request
/// middleware skips the span).
package enum EffectiveTracer {
    package static func resolve(_ tracer: (any Tracer)?) -> (any Tracer)? {
        let tracer = tracer ?? InstrumentationSystem.tracer
        return tracer is NoOpTracer ? nil : tracer
    }
}
