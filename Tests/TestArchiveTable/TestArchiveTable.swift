import Foundation
import OrderPackage
import WalletPrimitives

/// `TestArchives/expectations.tsv`: every test archive with the verdict and codes it must get.
public enum TestArchiveTable {
    /// One row: a file, the `orders verify` options to use, and the expected outcome.
    public struct Row: Sendable, CustomStringConvertible {
        public var file: String
        public var options: [String]
        public var valid: Bool
        public var errorCodes: Set<String>
        public var warningCodes: Set<String>

        public var description: String {
            options.isEmpty ? file : "\(file) \(options.joined(separator: " "))"
        }

        /// The verification time the options ask for.
        public var time: VerificationTime {
            if options.contains("--at-signing-time") { return .signingTime }
            if let index = options.firstIndex(of: "--at"), index + 1 < options.count,
                let instant = RFC3339Timestamp(options[index + 1])
            {
                return .at(instant.date)
            }
            return .now
        }

        public var url: URL { TestArchiveTable.directory.appendingPathComponent(file) }
    }

    /// `TestArchives/`, found from this source file so tests run from any working directory.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestArchives")

    /// The package root (the folder holding Package.swift).
    public static var packageRoot: URL { directory.deletingLastPathComponent() }

    public static let testRoot: URL = directory.appendingPathComponent("pki/root.pem")

    public static let rows: [Row] = {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("expectations.tsv"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap { line -> Row? in
            guard !line.hasPrefix("#") else { return nil }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 5 else { return nil }
            func codes(_ column: String) -> Set<String> {
                column == "-" ? [] : Set(column.split(separator: ",").map(String.init))
            }
            return Row(
                file: columns[0],
                options: columns[1] == "-" ? [] : columns[1].split(separator: " ").map(String.init),
                valid: columns[2] == "valid",
                errorCodes: codes(columns[3]),
                warningCodes: codes(columns[4]))
        }
    }()

    /// A trust store with Apple's roots plus the test PKI's root.
    public static func trustStore() throws -> TrustStore {
        try TrustStore.apple.adding(roots: [Data(contentsOf: testRoot)])
    }

    /// The bytes of a file under TestArchives/.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(relativePath))
    }
}
