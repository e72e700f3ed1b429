import Foundation
import TestArchiveTable
import Testing

/// What `--help` and a usage error teach (issue 41, item 6): the command's own usage, one default
/// per option, defaults shown, the owner's password named for what it opens.
@Suite("Help texts and usage errors")
struct HelpTextTests {
    @Test("verify and add without a file print their own usage, not the tool's", arguments: ["verify", "add"])
    func ownUsage(_ command: String) async throws {
        let result = try await OrdersProcess.run([command])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix("Error: Give at least one file to \(command).\nUsage: orders \(command) "), "\(result.stderr)"
        )
        #expect(result.stderr.contains("See 'orders \(command) --help' for more information."))
    }

    @Test("every command's --help ends with examples and its exit statuses; serve's names every surface it serves")
    func examplesAndExits() async throws {
        var leaves: [[String]] = []
        var groups: [[String]] = [[]]
        while let group = groups.popLast() {
            let help = try await OrdersProcess.run(group + ["--help"]).stdout
            guard let listing = help.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first else {
                leaves.append(group)
                continue
            }
            let names = listing.components(separatedBy: "\n\n")[0].split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
                return line.split(separator: " ").first.map(String.init)
            }
            groups += names.filter { $0 != "help" }.map { group + [$0] }
        }
        #expect(leaves.count >= 36, "\(leaves)")
        for command in leaves {
            let help = try await OrdersProcess.run(command + ["--help"]).stdout
            #expect(help.contains("Exit status: "), "orders \(command.joined(separator: " ")): no exit statuses")
            #expect(
                help.contains("Examples:\n  orders ") || help.contains("Examples:\n  ORDERS_"), "orders \(command): no example")
        }
        let serve = try await OrdersProcess.run(["serve", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        for surface in ["Wallet devices", "merchant API", "financial data", "consent", "order pages", "console", "/metrics"] {
            #expect(serve.contains(surface), "serve --help does not name \(surface)")
        }
    }

    @Test(
        "an option needed at least once is shown as required in USAGE",
        arguments: [
            (["keys", "create"], "--order-type <type> ..."), (["finance", "clients", "create"], "--redirect-uri <uri> ..."),
        ])
    func requiredRepeatable(_ command: [String], _ shown: String) async throws {
        let help = try await OrdersProcess.run(command + ["--help"]).stdout
        let usage = help.split(separator: "\n").first { $0.hasPrefix("USAGE:") }.map(String.init) ?? ""
        #expect(usage.contains(" " + shown) && !usage.contains("[" + shown), "\(usage)")
        let missing = try await OrdersProcess.run(command + ["--name", "x"])
        #expect(missing.status == 2 && missing.stderr.contains("Missing expected argument"), "\(missing.stderr)")
    }

    @Test("no option's help gives its default twice; --png-size shows its default")
    func defaults() async throws {
        for command in [["finance", "import"], ["preview"], ["serve"], ["verify"], ["add"]] {
            let help = try await OrdersProcess.run(command + ["--help"]).stdout
            // An option's help starts on a line indented two spaces with a dash.
            let options = help.components(separatedBy: "\n  -").dropFirst()
            for option in options {
                let text = option.split(separator: "\n").prefix { !$0.hasPrefix("  -") }.joined(separator: " ")
                #expect(text.components(separatedBy: "(default:").count <= 2, "\(command): \(text)")
            }
        }
        let preview = try await OrdersProcess.run(["preview", "--help"]).stdout
        #expect(
            preview.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("(default: 430, as tall as the page)"))
    }

    @Test("orders owner names what the password opens: the pages and the console, not only financial data")
    func ownerHelp() async throws {
        let help = try await OrdersProcess.run(["owner", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        #expect(help.contains("console"))
        #expect(!help.contains("financial-data pages"))
    }
}
