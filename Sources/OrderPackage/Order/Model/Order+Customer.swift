extension Order {
    /// `customer`: who placed the order; every field is optional.
    public struct Customer: Sendable, Hashable, Codable {
        public var emailAddress: String?
        public var familyName: String?
        public var givenName: String?
        public var organizationName: String?
        public var phoneNumber: String?

        public init(
            emailAddress: String? = nil, familyName: String? = nil, givenName: String? = nil,
            organizationName: String? = nil, phoneNumber: String? = nil
        ) {
            self.emailAddress = emailAddress
            self.familyName = familyName
            self.givenName = givenName
            self.organizationName = organizationName
            self.phoneNumber = phoneNumber
        }
    }
}
