/// Secrets for tests: 24 random hexadecimal digits, new on every run, so that no path, name or
/// fixture can hold one, and finding one in a store, a log or an output is a leak — never the
/// checkout's own folder name (a clone named `wallet-orders` once held a fixed passphrase).
public enum TestSecret {
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<24).map { _ in String(UInt8.random(in: 0...15, using: &generator), radix: 16) }.joined()
    }
}
