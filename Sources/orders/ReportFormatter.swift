import Foundation
import OrderPackage
import WalletPrimitives

/// Renders a ``VerificationReport`` for people and for machines.
enum ReportFormatter {
    /// `✓ file  type / id  updated …  team …`, or `✗ file` followed by one line per problem.
    static func human(file: String, report: VerificationReport) -> String {
        var lines: [String] = []
        let identity = [report.orderTypeIdentifier, report.orderIdentifier].compactMap { $0 }.joined(separator: " / ")
        if report.isValid {
            var facts = [identity]
            if let updatedAt = report.updatedAt { facts.append("updated \(updatedAt.text)") }
            if let team = report.teamIdentifier { facts.append("team \(team)") }
            lines.append("✓ \(file)  " + facts.filter { !$0.isEmpty }.joined(separator: "  "))
        } else {
            lines.append("✗ \(file)" + (identity.isEmpty ? "" : "  \(identity)"))
            for error in report.errors {
                lines.append("    \(error.code.rawValue)\(error.path.map { " at \($0)" } ?? ""): \(error.message)")
            }
        }
        for warning in report.warnings {
            lines.append("    warning \(warning.code.rawValue)\(warning.path.map { " at \($0)" } ?? ""): \(warning.message)")
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON object on one line, keys in a fixed order. Every key is always present (null
    /// when unknown), so consumers can rely on the shape.
    static func jsonLine(file: String, report: VerificationReport) -> String {
        func issues(_ list: [VerificationIssue]) -> JSONValue {
            .array(
                list.map { issue in
                    .object(
                        JSONObject([
                            .init(key: "code", value: .string(issue.code.rawValue)),
                            .init(key: "message", value: .string(issue.message)),
                            .init(key: "path", value: .string(issue.path)),
                        ]))
                })
        }
        let members: [JSONObject.Member] = [
            .init(key: "file", value: .string(file)),
            .init(key: "valid", value: .bool(report.isValid)),
            .init(key: "errors", value: issues(report.errors)),
            .init(key: "warnings", value: issues(report.warnings)),
            .init(key: "orderTypeIdentifier", value: .string(report.orderTypeIdentifier)),
            .init(key: "orderIdentifier", value: .string(report.orderIdentifier)),
            .init(key: "createdAt", value: .string(report.createdAt?.text)),
            .init(key: "updatedAt", value: .string(report.updatedAt?.text)),
            .init(key: "status", value: .string(report.status)),
            .init(key: "merchant", value: .string(report.merchantDisplayName)),
            .init(key: "teamIdentifier", value: .string(report.teamIdentifier)),
            .init(key: "signerSubject", value: .string(report.signerSubject)),
            .init(key: "signingTime", value: .string(report.signingTime.map { RFC3339Timestamp($0).text })),
            .init(key: "leafNotAfter", value: .string(report.leafNotAfter.map { RFC3339Timestamp($0).text })),
            .init(key: "archiveSHA256", value: .string(report.archiveSHA256.isEmpty ? nil : report.archiveSHA256)),
        ]
        return JSONValue.object(JSONObject(members)).serialized
    }
}
