extension Order {
    /// A barcode shown with the order or a pickup.
    public struct Barcode: Sendable, Hashable, Codable {
        public enum Format: String, Sendable, Hashable, Codable, CaseIterable {
            case qr, pdf417, aztec, code128
        }

        public var format: Format
        public var message: String
        /// Typically `iso-8859-1`.
        public var messageEncoding: String?
        public var altText: String?

        public init(format: Format, message: String, messageEncoding: String? = nil, altText: String? = nil) {
            self.format = format
            self.message = message
            self.messageEncoding = messageEncoding
            self.altText = altText
        }
    }
}
