/// A point in the store's sequence of order changes: Apple's `lastModified` /
/// `ordersModifiedSince` tag, opaque to devices.
///
/// Every save that inserts or replaces an order takes the next number of one store-wide sequence,
/// in the same transaction. A device passes back the tag it was given and hears only about orders
/// changed after it. Its text is the number in decimal (`"1042"`); anything else is no tag.
///
/// ```swift
/// let tag = OrderChangeTag(text: request.query["ordersModifiedSince"])   // nil: everything
/// ```
public struct OrderChangeTag: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var sequence: Int64

    public init(sequence: Int64) {
        self.sequence = sequence
    }

    /// The tag a device sent: decimal digits only (no sign, no spaces, at most 18 digits); nil
    /// for anything else, which means "everything".
    public init?(text: String?) {
        guard let text, !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let value = Int64(text)
        else { return nil }
        sequence = value
    }

    public var description: String { String(sequence) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sequence < rhs.sequence }
}
