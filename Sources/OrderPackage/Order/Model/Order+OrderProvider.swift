import Foundation

extension Order {
    /// `orderProvider` (iOS 17.4+): the platform that provides the order data.
    public struct OrderProvider: Sendable, Hashable, Codable {
        public var displayName: String
        public var url: URL
        /// Image files in the package.
        public var trackingLogoNameDarkColorScheme: String
        public var trackingLogoNameLightColorScheme: String

        public init(
            displayName: String, url: URL, trackingLogoNameDarkColorScheme: String, trackingLogoNameLightColorScheme: String
        ) {
            self.displayName = displayName
            self.url = url
            self.trackingLogoNameDarkColorScheme = trackingLogoNameDarkColorScheme
            self.trackingLogoNameLightColorScheme = trackingLogoNameLightColorScheme
        }
    }
}
