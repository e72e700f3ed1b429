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
        }
        lines += findings(report)
        return lines.joined(separator: "\n")
    }

    /// One indented line per error (`    code at path: message`), then per warning (`    warning …`),
    /// as `orders verify` prints them under a file.
    static func findings(_ report: VerificationReport) -> [String] {
        let errors = report.isValid ? [] : report.errors.map { "    \(line($0.code.rawValue, $0.path, $0.message))" }
        return errors + report.warnings.map { "    warning \(line($0.code.rawValue, $0.path, $0.message))" }
    }

    private static func line(_ code: String, _ path: String?, _ message: String) -> String {
        "\(code)\(path.map { " at \($0)" } ?? ""): \(message)"
    }
}
