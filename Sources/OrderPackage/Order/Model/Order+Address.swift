extension Order {
    /// A postal address; every field is optional.
    public struct Address: Sendable, Hashable, Codable {
        public var addressLines: [String]?
        public var administrativeArea: String?
        /// ISO 3166-1 alpha-2, e.g. `US`.
        public var countryCode: String?
        public var locality: String?
        public var postalCode: String?
        public var subAdministrativeArea: String?
        public var subLocality: String?

        public init(
            addressLines: [String]? = nil, administrativeArea: String? = nil, countryCode: String? = nil,
            locality: String? = nil, postalCode: String? = nil, subAdministrativeArea: String? = nil,
            subLocality: String? = nil
        ) {
            self.addressLines = addressLines
            self.administrativeArea = administrativeArea
            self.countryCode = countryCode
            self.locality = locality
            self.postalCode = postalCode
            self.subAdministrativeArea = subAdministrativeArea
            self.subLocality = subLocality
        }
    }
}
