import Foundation

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
        let name = current.count > 40 ? "…" + current.suffix(39) : current
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total) \(name)\u{1B}[K".utf8))
        drawn = true
    }

    func clear() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }
}
