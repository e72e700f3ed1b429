/// Comparisons whose duration does not depend on where two secrets differ.
public enum ConstantTime {
    /// Whether `lhs` and `rhs` hold the same bytes, looking at every byte of the longer one
    /// whatever the contents, so that timing tells an attacker nothing but the lengths.
    ///
    /// ```swift
    /// guard ConstantTime.equals(Array(presented.utf8), Array(stored.utf8)) else { throw .unauthorized }
    /// ```
    public static func equals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        // An array converts without a copy; the comparison itself is the non-generic one below.
        equals(Array(lhs), Array(rhs))
    }

    /// The same comparison for byte arrays, without a generic call per byte (the generic loop was
    /// 2 % of a merchant API request).
    public static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        var difference: UInt8 = lhs.count == rhs.count ? 0 : 1
        lhs.withUnsafeBufferPointer { left in
            rhs.withUnsafeBufferPointer { right in
                for index in 0..<max(left.count, right.count) {
                    difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
                }
            }
        }
        return difference == 0
    }
}
