import Foundation

/// An Order Type ID certificate for the test type from the test PKI's WWDR CA, valid for `days`
/// from now, with its key: a certificate about to expire (issue 53: expiry watched). Made with
/// the `openssl` tool, as `TestArchives/pki.sh` makes the shipped ones.
public enum ShortLivedCertificate {
    public static func make(days: Int) throws -> (certificate: String, key: String) {
        let folder = try TemporaryDirectory.make("short-lived")
        let key = folder.appendingPathComponent("short.key").path
        let request = folder.appendingPathComponent("short.csr").path
        let certificate = folder.appendingPathComponent("short.pem").path
        let extensions = folder.appendingPathComponent("leaf.cnf")
        try Data(
            """
            [order_leaf]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = clientAuth, 1.2.840.113635.100.4.19
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            1.2.840.113635.100.14.2 = ASN1:UTF8String:\(TestOrderArchive.orderTypeIdentifier)

            """.utf8
        ).write(to: extensions)
        let pki = TestArchiveTable.directory.appendingPathComponent("pki")
        let type = TestOrderArchive.orderTypeIdentifier
        try openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key])
        try openssl([
            "req", "-new", "-key", key, "-out", request, "-subj",
            "/UID=\(type)/CN=Order Type ID: \(type)/OU=ABCDE12345/O=Example Inc./C=US",
        ])
        try openssl([
            "x509", "-req", "-in", request, "-CA", pki.appendingPathComponent("wwdr.pem").path, "-CAkey",
            pki.appendingPathComponent("wwdr.key").path, "-CAcreateserial", "-CAserial",
            folder.appendingPathComponent("serial").path, "-days", String(days), "-extfile", extensions.path, "-extensions",
            "order_leaf", "-out", certificate,
        ])
        return (certificate, key)
    }

    /// ``make(days:)``'s certificate and key in a PKCS#12 file encrypted with `passphrase`.
    public static func pkcs12(days: Int, passphrase: String) throws -> String {
        let (certificate, key) = try make(days: days)
        let path = URL(fileURLWithPath: certificate).deletingLastPathComponent().appendingPathComponent("short.p12").path
        try openssl(
            ["pkcs12", "-export", "-in", certificate, "-inkey", key, "-passout", "env:P12_PASSPHRASE", "-out", path],
            environment: ["P12_PASSPHRASE": passphrase])
        return path
    }

    private static func openssl(_ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments[0]) failed"])
        }
    }
}
