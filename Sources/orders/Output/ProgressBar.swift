import Foundation
import OrderPackage
import WalletPrimitives

/// A one-line progress bar on stderr, drawn only when stderr is a terminal.
final class ProgressBar {
    let total: Int
    let enabled: Bool
    private var drawn = false

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func show(done: Int, current: String) {
        guard enabled, done < total else { return }
        let width = 30
        let filled = width * done / max(total, 1)
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        let shown = current.count > 40 ? "…" + current.suffix(39) : current
        let name = MessageText.escapingControlCharacters(String(shown))
        Output.raw("\r[\(bar)] \(done)/\(total) \(name)\u{1B}[K")
        drawn = true
    }

    func clear() {
        guard drawn else { return }
        Output.raw("\r\u{1B}[K")
        drawn = false
    }
}
