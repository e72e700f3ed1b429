extension String {
    /// The string these bytes encode when they are valid UTF-8; nil otherwise.
    ///
    /// `String(validating:as:)` with the same result, without its cost on hot paths: it is
    /// generic, so every call looks up its type metadata at run time; ASCII (most names, keys
    /// and values) is recognized here and decoded without a second validation.
    public init?(validUTF8 bytes: UnsafeRawBufferPointer) {
        var allBits: UInt8 = 0
        for byte in bytes { allBits |= byte }
        if allBits < 0x80 {
            self = String(decoding: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
        } else {
            guard let string = String(validating: bytes, as: UTF8.self) else { return nil }
            self = string
        }
    }
}
