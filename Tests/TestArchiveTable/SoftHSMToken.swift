import Foundation

/// A SoftHSM2 token of its own for a test (Debian's `softhsm2`, installed by Scripts/setup.sh):
/// its configuration and token folder in a scratch folder, the test PKI's order key imported as
/// `order-key`. Processes given ``environment`` see this token and no other; the test process
/// itself never loads the module (it reads its configuration from the environment once).
public struct SoftHSMToken: Sendable {
    /// Debian's path of the module.
    public static let module = "/usr/lib/softhsm/libsofthsm2.so"
    public let folder: URL
    public let label: String
    /// The token's user PIN: random for each token, so that no path or name can hold it and a
    /// search of a store or an output for it finds only a leak.
    public let pin: String

    /// `SOFTHSM2_CONF` pointing at this token's configuration.
    public var environment: [String: String] {
        ["SOFTHSM2_CONF": folder.appendingPathComponent("softhsm2.conf").path]
    }

    /// The RFC 7512 URI of the imported key.
    public var keyURI: String { "pkcs11:token=\(label);object=order-key;type=private" }

    /// A file holding ``pin``, for `--passphrase-file`.
    public var pinFile: String { folder.appendingPathComponent("pin").path }

    /// Initialises a token labelled `label` and imports `pki/<key>.key` into it.
    public init(label: String = "orders", key: String = "order") throws {
        folder = try TemporaryDirectory.make("softhsm")
        self.label = label
        pin = TestSecret.random()
        let tokens = folder.appendingPathComponent("tokens")
        try FileManager.default.createDirectory(at: tokens, withIntermediateDirectories: true)
        try Data("directories.tokendir = \(tokens.path)\nobjectstore.backend = file\nlog.level = ERROR\n".utf8).write(
            to: folder.appendingPathComponent("softhsm2.conf"))
        try Data("\(pin)\n".utf8).write(to: URL(fileURLWithPath: pinFile))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: pinFile)
        try run(["--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", TestSecret.random()])
        let keyPath = TestArchiveTable.directory.appendingPathComponent("pki/\(key).key").path
        try run(["--import", keyPath, "--token", label, "--label", "order-key", "--id", "01", "--pin", pin])
    }

    private func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/softhsm2-util")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SoftHSMFailure(message: "softhsm2-util \(arguments.first ?? ""): \(String(decoding: printed, as: UTF8.self))")
        }
    }
}

public struct SoftHSMFailure: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
