import Foundation
import Logging
import WalletPrimitives

/// A swift-log handler that writes each event as one line to a ``LogSink``: the message and every
/// metadata key and value escaped by ``WalletPrimitives/LogText`` (whatever the log site passed),
/// and the line cut at ``maximumLineLength`` bytes. The layout is swift-log's
/// `StreamLogHandler`'s: `2026-11-25T12:00:00+0000 info orders.serve: key=value [Module] message`.
///
/// ```swift
/// LoggingSystem.bootstrap { LogLineHandler(label: $0, sink: .standardError) }
/// ```
public struct LogLineHandler: LogHandler {
    /// The longest line written, in bytes; a longer one is cut and says so.
    public static let defaultMaximumLineLength = 8192

    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public let label: String
    public let sink: LogSink
    public let maximumLineLength: Int

    public init(
        label: String, sink: LogSink = .standardError, logLevel: Logger.Level = .info,
        maximumLineLength: Int = defaultMaximumLineLength, metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.label = label
        self.sink = sink
        self.logLevel = logLevel
        self.maximumLineLength = maximumLineLength
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        var text = "\(Self.timestamp()) \(event.level) \(LogText.escaped(label)):"
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            text += " \(LogText.escaped(key))=\(LogText.escaped(value.description))"
        }
        text += " [\(LogText.escaped(event.source))] \(LogText.escaped(event.message.description))"
        if let error = event.error { text += " (error: \(LogText.escaped(String(describing: error))))" }
        sink.write(LogText.clipped(text, toBytes: maximumLineLength))
    }

    /// Local time as swift-log's `StreamLogHandler` writes it.
    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [Int8](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
