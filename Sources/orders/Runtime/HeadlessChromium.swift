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
        let height = try size.height ?? pageHeight(of: page, width: size.width, chromium: chromium, folder: folder, dark: dark)
        let status = try run(
            chromium, folder: folder, dark: dark,
            ["--window-size=\(size.width),\(height)", "--screenshot=\(shot.path)", html.absoluteString], output: nil)
        guard status == 0, let image = try? Data(contentsOf: shot), !image.isEmpty else {
            throw CommandFailure("Chromium could not take the screenshot (exit status \(status))")
        }
        try FileOutput.write(image, to: path)
    }

    /// The page's height at `width`, in CSS pixels: a copy of the page (the page itself runs no
    /// script) reports, once loaded, the lowest edge of anything on it plus 24 px, read from
    /// Chromium's `--dump-dom`. (`scrollHeight` left out the last card's margin, and the
    /// screenshot lays the page out a few pixels taller than the measuring pass.) 2400 when
    /// Chromium says nothing usable.
    static func pageHeight(of page: Data, width: Int, chromium: String, folder: URL, dark: Bool) throws -> Int {
        var text = String(decoding: page, as: UTF8.self)
        // The copy's own policy would refuse the script that measures it.
        text = text.replacingOccurrences(of: #"<meta http-equiv="Content-Security-Policy""#, with: "<meta data-removed")
        let report =
            "<script>addEventListener('load',()=>{document.title='orders-height:'+Math.ceil(24+Math.max(0,"
            + "...Array.from(document.body.querySelectorAll('*'),e=>e.getBoundingClientRect().bottom)))})</script>"
        text = text.replacingOccurrences(of: "</body>", with: report + "</body>")
        let copy = folder.appendingPathComponent("measure.html")
        try Data(text.utf8).write(to: copy)
        let dump = folder.appendingPathComponent("dom.html")
        _ = FileManager.default.createFile(atPath: dump.path, contents: nil)
        let output = try FileHandle(forWritingTo: dump)
        defer { try? output.close() }
        _ = try run(
            chromium, folder: folder, dark: dark, ["--window-size=\(width),800", "--dump-dom", copy.absoluteString],
            output: output)
        let dom = (try? String(contentsOf: dump, encoding: .utf8)) ?? ""
        guard let found = dom.firstMatch(of: #/<title>orders-height:(\d{1,6})</title>/#), let height = Int(found.1) else {
            return 2_400
        }
        return min(max(height, 100), 16_000)
    }

    /// Runs Chromium headless on its own profile in `folder` with `arguments`; its exit status.
    private static func run(
        _ chromium: String, folder: URL, dark: Bool, _ arguments: [String], output: FileHandle?
    ) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments =
            [
                "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--hide-scrollbars",
                "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
                // Blink's preferred color scheme: 0 dark, 1 light.
                "--blink-settings=preferredColorScheme=\(dark ? 0 : 1)",
            ] + arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw CommandFailure("cannot run \(chromium): \(error.localizedDescription)") }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
