extension Order {
    /// A point on Earth: latitude −90…90, longitude −180…180, altitude in metres.
    public struct Location: Sendable, Hashable, Codable {
        public var latitude: Double
        public var longitude: Double
        public var altitude: Double?

        public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }
    }
}
