/// A file a command wrote (`orders export`, `orders pack`): where, and how many bytes. `-` is
/// standard output.
public struct WireFileWritten: Codable, Sendable, Hashable {
    public var file: String
    public var bytes: Int

    public init(file: String, bytes: Int) {
        self.file = file
        self.bytes = bytes
    }
}
