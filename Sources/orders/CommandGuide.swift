/// The end of every command's `--help`: examples to copy, and the exit statuses the command
/// uses (docs/cli.md has them in full). Kept in one table so that `HelpTextTests` can hold every
/// command to it.
enum CommandGuide {
    struct Entry {
        /// Command lines, each shown indented under "Examples:".
        var examples: [String]
        /// "Exit status: …", or nil when the command's discussion already says it.
        var exits: String?
    }

    /// `discussion` (if any), then the examples and exit statuses of the command at `path`
    /// ("verify", "finance clients create").
    static func discussion(_ path: String, _ discussion: String = "") -> String {
        guard let entry = entries[path] else { preconditionFailure("no CommandGuide entry for \(path)") }
        var parts = discussion.isEmpty ? [] : [discussion]
        if let exits = entry.exits { parts.append(exits) }
        parts.append("Examples:\n" + entry.examples.map { "  " + $0 }.joined(separator: "\n"))
        return parts.joined(separator: "\n\n")
    }

    static let reading =
        "Exit status: 0 done, 2 usage or store error, 5 not authorized (--client), 6 restricted, 7 not provided by this deployment."
    static let finance =
        "Exit status: 0 done, 1 unknown or unshared account, 2 usage or store error, 5 not authorized, 6 restricted, 7 not provided."
    static let operatorCommand = "Exit status: 0 done, 2 usage or store error."

    static let entries: [String: Entry] = [
        "verify": Entry(examples: ["orders verify bundle.order", "orders verify --json --trust-root test-root.pem *.order"]),
        "add": Entry(examples: ["orders add bundle.order", "orders add --yes --json incoming/*.order"]),
        "check": Entry(examples: ["orders check --type com.merchant.order --id ORDER-123"]),
        "list": Entry(
            examples: ["orders list --status open --since 2026-11-01", "orders list --search coffee --json"], exits: reading),
        "show": Entry(examples: ["orders show --type com.merchant.order --id ORDER-123 --locale de"]),
        "history": Entry(examples: ["orders history --type com.merchant.order --id ORDER-123"]),
        "export": Entry(examples: ["orders export --type com.merchant.order --id ORDER-123 --output ORDER-123.order"]),
        "remove": Entry(examples: ["orders remove --type com.merchant.order --id ORDER-123"]),
        "pack": Entry(
            examples: [
                "orders pack order-folder --certificate order-type.pem --key order-type.key --intermediate wwdr.pem --output bundle.order"
            ], exits: "Exit status: 0 written, 1 the folder is not a valid order, 2 usage or I/O error."),
        "finance import": Entry(
            examples: ["orders finance import feed.json", "orders finance import --json --max-size 1048576 feed.json"],
            exits: "Exit status: 0 imported, 1 rejected feed (nothing imported), 2 usage, I/O or store error."),
        "finance accounts": Entry(
            examples: ["orders finance accounts", "orders finance accounts --client client.5c16 --json"], exits: finance),
        "finance balances": Entry(
            examples: ["orders finance balances --account 6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B"], exits: finance),
        "finance transactions": Entry(
            examples: [
                "orders finance transactions --since 2026-11-01 --sort transactionDate:desc --limit 20",
                "orders finance transactions --status pending --json",
            ],
            exits: finance),
        "finance history": Entry(
            examples: [
                "orders finance history accounts --token-file accounts.token",
                "orders finance history transactions --account 6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B --follow --json",
            ], exits: finance),
        "finance compact": Entry(examples: ["orders finance compact"], exits: operatorCommand),
        "finance clients create": Entry(
            examples: [
                "orders finance clients create --name \"Budget Planner\" --redirect-uri https://budget.example/callback",
                "orders finance clients create --name Receipts --redirect-uri com.example.receipts:/callback --public --json",
            ], exits: "Exit status: 0 registered, 1 a taken id or an unacceptable redirect URI, 2 usage or store error."),
        "finance clients list": Entry(examples: ["orders finance clients list --json"], exits: operatorCommand),
        "finance clients revoke": Entry(
            examples: ["orders finance clients revoke client.5c1629a60a81b0a4"],
            exits: "Exit status: 0 revoked, 2 usage or store error, or no such client."),
        "finance deliveries list": Entry(examples: ["orders finance deliveries list"], exits: operatorCommand),
        "finance deliveries show": Entry(
            examples: ["orders finance deliveries show 0C1D2E3F-4A5B-4E5F-9A7B-6F2A3C8E1B4D"],
            exits: "Exit status: 0 shown, 1 no such endpoint, 2 usage or store error."),
        "access status": Entry(examples: ["orders access status --client client.5c16 --json"], exits: operatorCommand),
        "access request": Entry(
            examples: ["ORDERS_CLIENT=client.5c16 orders access request"],
            exits: "Exit status: 0 answered (the status is printed), 5 no answer (still notDetermined), 2 usage or store error."),
        "access grant": Entry(
            examples: [
                "orders access grant --client client.5c16 --account 6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B:2026-01-01 --order-type com.merchant.order"
            ], exits: operatorCommand),
        "access deny": Entry(examples: ["orders access deny --client client.5c16"], exits: operatorCommand),
        "access revoke": Entry(
            examples: [
                "orders access revoke --client client.5c16",
                "orders access revoke --client client.5c16 --order-type com.merchant.order",
            ], exits: operatorCommand),
        "restrict": Entry(
            examples: ["orders restrict on --type financialData", "orders restrict status --json"], exits: operatorCommand),
        "doctor": Entry(examples: ["orders doctor", "orders doctor --compact"]),
        "serve": Entry(
            examples: [
                "orders serve --port 8080 --base-path /wallet",
                "orders serve --database postgres://wallet@db1,db2/wallet?target_session_attrs=read-write --trusted-proxy 127.0.0.1 --public-url https://wallet.example.com --push-key-p8 AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --team-id DEF123GHIJ",
            ],
            exits:
                "Exit status: 0 after SIGTERM or SIGINT, 2 usage error, unusable credentials or store, or a port that is taken."),
        "keys create": Entry(
            examples: ["orders keys create --order-type com.merchant.order --name \"shop backend\" > key.txt"],
            exits: operatorCommand),
        "keys list": Entry(examples: ["orders keys list --json"], exits: operatorCommand),
        "tracking add": Entry(
            examples: [
                "orders tracking add --provider aftership --order-type com.merchant.order --secret-file /run/secrets/aftership --public-url https://wallet.example.com/"
            ],
            exits: operatorCommand),
        "tracking list": Entry(examples: ["orders tracking list --json"], exits: operatorCommand),
        "tracking secrets": Entry(
            examples: ["orders tracking secrets trk_abc… --secret-file new.secret --secret-file old.secret"],
            exits: "Exit status: 0 done, 1 no such endpoint, 2 usage or store error."),
        "tracking remove": Entry(
            examples: ["orders tracking remove trk_abc…"],
            exits: "Exit status: 0 removed, 1 no such endpoint, 2 usage or store error."),
        "tracking events": Entry(examples: ["orders tracking events --unmatched"], exits: operatorCommand),
        "tracking replay": Entry(
            examples: ["orders tracking replay saved-body.json --provider aftership --public-url https://wallet.example.com/"],
            exits:
                "Exit status: 0 recorded (applied or not: the outcome is printed), 1 a body or endpoint refused, 2 usage or store error, 6 restricted."
        ),
        "keys revoke": Entry(
            examples: ["orders keys revoke 3f2a9c0b1d2e4f5a"],
            exits: "Exit status: 0 revoked, 1 no such key, 2 usage or store error."),
        "signing add": Entry(
            examples: [
                "orders signing add --order-type com.merchant.order --certificate order.pem --key order.key",
                "orders signing add --order-type com.merchant.order --key identity.p12 --passphrase-env ORDER_KEY_PASSPHRASE",
                "orders signing add --order-type com.merchant.order --certificate order.pem --pkcs11-uri 'pkcs11:token=shop;object=order-key' --pkcs11-module /usr/lib/softhsm/libsofthsm2.so --passphrase-file /run/secrets/pin",
            ],
            exits:
                "Exit status: 0 stored (staged beside an active identity, or active), 1 refused (not an Order Type ID certificate for the type, expired, untrusted, not the key's, or a secret in the URI), 2 usage, I/O or store error."
        ),
        "author": Entry(
            examples: [
                "orders author --type com.merchant.order --id ORDER-123 order.json --resources order-folder",
                "orders author --type com.merchant.order --id ORDER-123 --patch status-completed.json --json",
            ],
            exits:
                "Exit status: 0 authored, 1 refused (invalid content, a field the service owns, a patch of no stored order, no signing identity), 2 usage, I/O or store error."
        ),
        "signing list": Entry(examples: ["orders signing list --json"], exits: operatorCommand),
        "signing status": Entry(examples: ["orders signing status", "orders signing status --json"], exits: operatorCommand),
        "signing activate": Entry(
            examples: [
                "orders signing activate --order-type com.merchant.order",
                "orders signing activate --order-type com.merchant.order --force",
            ],
            exits:
                "Exit status: 0 activated, 1 nothing staged (signing.nothingStaged) or a live instance cannot sign with it (signing.notLoadableEverywhere), 2 usage or store error."
        ),
        "signing remove": Entry(
            examples: ["orders signing remove --order-type com.merchant.order"],
            exits: "Exit status: 0 removed, 1 no identity for the type, 2 usage or store error."),
        "migrate": Entry(examples: ["orders migrate --from sqlite:orders.sqlite --to postgres://wallet@db.internal/wallet"]),
        "owner set-password": Entry(
            examples: [
                "orders owner set-password", "printf '%s\\n' \"$PASSWORD\" | orders owner set-password --database \"$URL\"",
            ],
            exits: "Exit status: 0 set, 1 an unacceptable password, 2 no password on standard input, usage or store error."),
        "owner unlock": Entry(examples: ["orders owner unlock"], exits: operatorCommand),
        "preview": Entry(examples: [
            "orders preview bundle.order -o order.html", "orders preview --locale de --png order.png bundle.order",
        ]),
        "link": Entry(
            examples: ["orders link --type com.merchant.order --id ORDER-123 --base-url https://wallet.example.com --expires 30d"]
        ),
    ]
}
