import Foundation
import WalletPrimitives

extension Order {
    /// An entry of `returns` (iOS 17.2+).
    public struct Return: Sendable, Hashable, Codable {
        public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
            case open, onTheWay, processing, issue, completed, cancelled
        }

        public var returnIdentifier: String
        public var status: Status
        public var returnNumber: String?
        public var carrier: String?
        public var initiatedAt: RFC3339Timestamp?
        public var dropOffBy: RFC3339Timestamp?
        public var returnedAt: RFC3339Timestamp?
        /// Apple documents only "array" for this key; the elements are kept as written.
        public var lineItems: [JSONValue]?
        public var notes: String?
        /// A PDF, JPEG or PNG file in the package.
        public var returnLabel: String?
        public var returnManagementURL: URL?
        public var statusDescription: String?

        public init(
            returnIdentifier: String, status: Status, returnNumber: String? = nil, carrier: String? = nil,
            initiatedAt: RFC3339Timestamp? = nil, dropOffBy: RFC3339Timestamp? = nil, returnedAt: RFC3339Timestamp? = nil,
            lineItems: [JSONValue]? = nil, notes: String? = nil, returnLabel: String? = nil,
            returnManagementURL: URL? = nil, statusDescription: String? = nil
        ) {
            self.returnIdentifier = returnIdentifier
            self.status = status
            self.returnNumber = returnNumber
            self.carrier = carrier
            self.initiatedAt = initiatedAt
            self.dropOffBy = dropOffBy
            self.returnedAt = returnedAt
            self.lineItems = lineItems
            self.notes = notes
            self.returnLabel = returnLabel
            self.returnManagementURL = returnManagementURL
            self.statusDescription = statusDescription
        }
    }

    /// `returnInfo` (iOS 17.2+): the return policy.
    public struct ReturnInfo: Sendable, Hashable, Codable {
        public var returnPolicyURL: URL
        public var displayCountdown: Bool?
        public var returnDeadline: RFC3339Timestamp?
        public var returnManagementURL: URL?
        public var returnPolicyDescription: String?

        public init(
            returnPolicyURL: URL, displayCountdown: Bool? = nil, returnDeadline: RFC3339Timestamp? = nil,
            returnManagementURL: URL? = nil, returnPolicyDescription: String? = nil
        ) {
            self.returnPolicyURL = returnPolicyURL
            self.displayCountdown = displayCountdown
            self.returnDeadline = returnDeadline
            self.returnManagementURL = returnManagementURL
            self.returnPolicyDescription = returnPolicyDescription
        }
    }
}
