import Foundation
import OrderPackage
import OrderStorage

/// Shows the order on stderr and asks `Add this order? [y/N]`, reading the answer from stdin.
/// Anything but `y`/`yes` declines, including end of input.
struct TerminalConsentPrompt: OrderConsentPrompt {
    func shouldAdd(_ order: Order, report: VerificationReport) async -> Bool {
        var lines = ["", "  \(order.merchant.displayName) — order \(order.orderNumber ?? order.orderIdentifier)"]
        lines.append("  status \(order.status.rawValue), updated \(order.updatedAt.text)")
        if let total = order.payment?.total { lines.append("  total \(AmountFormatter.format(total))") }
        Output.prompt(lines.joined(separator: "\n") + "\nAdd this order? [y/N] ")
        let answer = readLine()
        // A terminal echoes the answer and its newline; piped answers do not.
        if isatty(STDIN_FILENO) != 1 { Output.prompt("\n") }
        guard let answer else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
