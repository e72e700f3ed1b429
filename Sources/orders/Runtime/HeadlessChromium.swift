import Foundation

/// Screenshots of a page through Debian's headless Chromium (the browser the tests drive), run
/// as a child process on a temporary copy of the page: `--headless=new`, no sandbox (it runs as
/// root in containers), no GPU, no network beyond the file.
enum HeadlessChromium {
    /// `ORDERS_CHROMIUM`, else the first of `chromium`, `chromium-browser`, `google-chrome` on PATH.
    static func executable() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["ORDERS_CHROMIUM"], !path.isEmpty { return path }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders where access("\(folder)/\(name)", X_OK) == 0 { return "\(folder)/\(name)" }
        }
        return nil
    }

    static func screenshot(of page: Data, to path: String, size: ScreenshotSize, dark: Bool) throws {
        guard let chromium = executable() else {
            throw CommandFailure("cannot take a screenshot: Chromium is not installed (Scripts/setup.sh installs it)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orders-preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = folder.appendingPathComponent("page.html")
        let shot = folder.appendingPathComponent("page.png")
        try page.write(to: html)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--hide-scrollbars",
            "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
            "--window-size=\(size.width),\(size.height)", "--screenshot=\(shot.path)",
            // Blink's preferred color scheme: 0 dark, 1 light.
            "--blink-settings=preferredColorScheme=\(dark ? 0 : 1)",
            html.absoluteString,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw CommandFailure("cannot run \(chromium): \(error.localizedDescription)") }
        process.waitUntilExit()
        guard process.terminationStatus == 0, let image = try? Data(contentsOf: shot), !image.isEmpty else {
            throw CommandFailure("Chromium could not take the screenshot (exit status \(process.terminationStatus))")
        }
        try FileOutput.write(image, to: path)
    }
}
