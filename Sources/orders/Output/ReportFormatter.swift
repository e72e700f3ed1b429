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
}
