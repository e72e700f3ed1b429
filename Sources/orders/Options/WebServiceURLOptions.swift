import ArgumentParser
import OrderPackage

/// `--allow-web-service-url TYPE=URL` (repeatable): a web service URL, besides the service's own,
/// that authored versions of an order type may name (docs/authoring.md, "Where devices go").
struct WebServiceURLOptions: ParsableArguments {
    @Option(
        name: .customLong("allow-web-service-url"),
        help: ArgumentHelp(
            "Let authored orders of TYPE name URL as their webServiceURL besides this service's own (a merchant's own web service); repeatable.",
            valueName: "type=url"))
    var allowances: [String] = []

    func validate() throws {
        _ = try allowed()
    }

    /// The allowed URLs by order type.
    func allowed() throws -> [String: Set<String>] {
        var allowed: [String: Set<String>] = [:]
        for text in allowances {
            guard let (type, url) = WebServiceURLPolicy.allowance(text) else {
                throw ValidationError(
                    "--allow-web-service-url takes TYPE=URL with an https URL ending in '/' (no user, query or fragment), not \(text.debugDescription)"
                )
            }
            allowed[type, default: []].insert(url)
        }
        return allowed
    }

    /// The `webServiceURL` authored versions get: `serviceURL` (the service's public URL with its
    /// base path, `--public-url`) and the allowances.
    func policy(serviceURL: String?) throws -> WebServiceURLPolicy {
        WebServiceURLPolicy(serviceURL: serviceURL, allowed: try allowed())
    }
}
