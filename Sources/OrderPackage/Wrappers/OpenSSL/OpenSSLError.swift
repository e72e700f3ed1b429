import COpenSSL

/// A failed OpenSSL call, with the reasons OpenSSL queued on the calling thread.
///
/// Creating one drains the thread's error queue, so a later call never reports a stale reason.
struct OpenSSLError: Error, CustomStringConvertible {
    /// What we were doing, e.g. "parse the CMS structure".
    let operation: String
    /// OpenSSL's reasons, oldest first (may be empty).
    let reasons: [String]
    /// The packed codes, for callers that branch on a specific library reason.
    let codes: [UInt]

    init(_ operation: String) {
        self.operation = operation
        var reasons: [String] = []
        var codes: [UInt] = []
        while case let code = ERR_get_error(), code != 0 {
            codes.append(code)
            if let reason = ERR_reason_error_string(code) {
                reasons.append(String(cString: reason))
            } else {
                reasons.append("error 0x\(String(code, radix: 16))")
            }
        }
        self.reasons = reasons
        self.codes = codes
    }

    /// Whether OpenSSL reported `reason` (an `ERR_GET_REASON` value) anywhere in the queue.
    func contains(reason: Int32) -> Bool {
        codes.contains { Int32(truncatingIfNeeded: $0 & 0x7F_FFFF) == reason }
    }

    var description: String {
        reasons.isEmpty ? "could not \(operation)" : "could not \(operation): \(reasons.joined(separator: "; "))"
    }

    /// Forgets anything an earlier call left on this thread's queue.
    static func clearQueue() {
        ERR_clear_error()
    }
}
