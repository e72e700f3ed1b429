/// `orders doctor --json`: every check with its status, and the worst status.
public struct WireDoctorReport: Codable, Sendable, Hashable {
    /// `ok`, `warn` or `error`: the worst of ``checks``.
    public var status: String
    public var checks: [WireDoctorCheck]

    public init(checks: [WireDoctorCheck]) {
        self.checks = checks
        status = checks.contains { $0.status == "error" } ? "error" : checks.contains { $0.status == "warn" } ? "warn" : "ok"
    }
}

/// One check of `orders doctor`: what was checked (`store`, `trust-roots`, `public-url`, `apns`,
/// `signing <type>`, `expiry <type> certificate|intermediate`, `files <type>`), how it went and
/// why, with a stable code when it failed.
public struct WireDoctorCheck: Codable, Sendable, Hashable {
    public var check: String
    /// `ok`, `warn` or `error`.
    public var status: String
    public var detail: String
    /// The error's stable code (`store.corrupt`, `signer.invalidPrivateKey`, …), when there is one.
    @Nullable public var code: String?

    public init(check: String, status: String, detail: String, code: String? = nil) {
        self.check = check
        self.status = status
        self.detail = detail
        self.code = code
    }
}
