import Foundation

extension Order {
    /// `merchant`: who sold the order.
    public struct Merchant: Sendable, Hashable, Codable {
        public var displayName: String
        /// The Apple Pay merchant identifier. Not the team identifier of the signing certificate.
        public var merchantIdentifier: String
        public var url: URL
        public var address: Address?
        public var businessChatURL: URL?
        public var contactURL: URL?
        public var emailAddress: String?
        /// An image file in the package.
        public var logo: String?
        public var phoneNumber: String?

        public init(
            displayName: String, merchantIdentifier: String, url: URL, address: Address? = nil,
            businessChatURL: URL? = nil, contactURL: URL? = nil, emailAddress: String? = nil,
            logo: String? = nil, phoneNumber: String? = nil
        ) {
            self.displayName = displayName
            self.merchantIdentifier = merchantIdentifier
            self.url = url
            self.address = address
            self.businessChatURL = businessChatURL
            self.contactURL = contactURL
            self.emailAddress = emailAddress
            self.logo = logo
            self.phoneNumber = phoneNumber
        }
    }
}
