import Foundation

extension Order {
    /// An entry of `associatedApplications`: an App Store app.
    public struct Application: Sendable, Hashable, Codable {
        public var storeIdentifier: Int64
        public var customProductPageIdentifier: String?
        public var launchURL: URL?

        public init(storeIdentifier: Int64, customProductPageIdentifier: String? = nil, launchURL: URL? = nil) {
            self.storeIdentifier = storeIdentifier
            self.customProductPageIdentifier = customProductPageIdentifier
            self.launchURL = launchURL
        }
    }
}
