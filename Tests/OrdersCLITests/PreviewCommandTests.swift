import Foundation
import TestArchiveTable
import Testing

@Suite("orders preview")
struct PreviewCommandTests {
    static let trust = ["--trust-root", "pki/root.pem"]

    /// Debian's Chromium, when installed; CI (ORDERS_REQUIRE_BROWSER=1) requires it.
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Chromium, or nil where it is not installed — a failure where the browser is required (CI).
    static func requiredChromium() -> String? {
        if chromium == nil {
            #expect(ProcessInfo.processInfo.environment["ORDERS_REQUIRE_BROWSER"] != "1", "Chromium is required in CI")
        }
        return chromium
    }

    @Test("a valid archive: one self-contained page on stdout, exit 0")
    func page() async throws {
        let result = try await OrdersProcess.run(["preview"] + Self.trust + ["valid/full.order"])
        #expect(result.status == 0, "\(result.stderr)")
        let html = result.stdout
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<title>Example Shop – Order 123-456-789</title>"))
        #expect(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\""))
        // Nothing the page loads comes from elsewhere: images are data: URIs; links are links.
        #expect(!html.contains("src=\"http") && !html.contains("<script") && !html.contains("<link"))
        #expect(html.contains("src=\"data:image/png;base64,"))
    }

    @Test("--locale picks the order.strings table; -o writes the file")
    func localeAndFile() async throws {
        let folder = try TemporaryDirectory.make("preview")
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("order.html")
        let result = try await OrdersProcess.run(
            ["preview", "--locale", "de-DE", "-o", target.path] + Self.trust + ["valid/localized.order"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let html = try String(contentsOf: target, encoding: .utf8)
        #expect(html.contains("<html lang=\"de\">") && html.contains("Beispiel-Laden") && html.contains("24,50"))
    }

    @Test("an invalid archive gets the report on stderr and no page: exit 1")
    func invalid() async throws {
        let folder = try TemporaryDirectory.make("preview")
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("order.html")
        let result = try await OrdersProcess.run(
            ["preview", "-o", target.path] + Self.trust + ["invalid/order-invalid-values.order"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("✗ invalid/order-invalid-values.order"))
        #expect(!FileManager.default.fileExists(atPath: target.path))
        let untrusted = try await OrdersProcess.run(["preview", "valid/full.order"])
        #expect(untrusted.status == 1 && untrusted.stderr.contains("signature.untrustedChain") && untrusted.stdout.isEmpty)
    }

    @Test("usage and I/O errors: exit 2")
    func usage() async throws {
        #expect(try await OrdersProcess.run(["preview"] + Self.trust + ["no-such.order"]).status == 2)
        #expect(try await OrdersProcess.run(["preview", "--png-size", "wide"] + Self.trust + ["valid/full.order"]).status == 2)
        let noBrowser = try await OrdersProcess.run(
            ["preview", "--png", "/tmp/never.png"] + Self.trust + ["valid/full.order"],
            environment: ["ORDERS_CHROMIUM": "/nonexistent/chromium"])
        #expect(noBrowser.status == 2)
        #expect(noBrowser.stderr.contains("cannot run /nonexistent/chromium"))
    }

    @Test("--png: a screenshot through headless Chromium, light and dark")
    func screenshot() async throws {
        guard let chromium = Self.requiredChromium() else { return }
        let folder = try TemporaryDirectory.make("preview")
        defer { try? FileManager.default.removeItem(at: folder) }
        var images: [Data] = []
        for scheme in [[], ["--dark"]] {
            let png = folder.appendingPathComponent("order\(images.count).png")
            let result = try await OrdersProcess.run(
                ["preview", "-o", folder.appendingPathComponent("order.html").path, "--png", png.path, "--png-size", "400x600"]
                    + scheme + Self.trust
                    + ["valid/basic.order"], environment: ["ORDERS_CHROMIUM": chromium])
            #expect(result.status == 0, "\(result.stderr)")
            let data = try Data(contentsOf: png)
            #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            images.append(data)
        }
        #expect(images[0] != images[1])
    }

    @Test("--png without a height is as tall as the page: no empty screen below a short order, all of a long one")
    func screenshotFitsThePage() async throws {
        guard let chromium = Self.requiredChromium() else { return }
        let folder = try TemporaryDirectory.make("preview")
        defer { try? FileManager.default.removeItem(at: folder) }
        var heights: [String: Int] = [:]
        for (file, size) in [("valid/basic.order", []), ("valid/full.order", []), ("valid/basic.order", ["--png-size", "400"])] {
            let png = folder.appendingPathComponent("shot.png")
            let result = try await OrdersProcess.run(
                ["preview", "-o", folder.appendingPathComponent("order.html").path, "--png", png.path] + size + Self.trust
                    + [file], environment: ["ORDERS_CHROMIUM": chromium])
            #expect(result.status == 0, "\(result.stderr)")
            let data = try Data(contentsOf: png)
            // PNG: the IHDR chunk's width and height, big-endian, at bytes 16 and 20.
            let width = data[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = data[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == (size.isEmpty ? 430 : 400), "\(file) \(size)")
            heights[file + size.joined()] = height
        }
        let basic = try #require(heights["valid/basic.order"])
        let full = try #require(heights["valid/full.order"])
        #expect(basic > 300 && basic < 1_600, "basic: \(basic) px")
        #expect(full > basic, "full \(full) px, basic \(basic) px")
        #expect(try await OrdersProcess.run(["preview", "--png-size", "400x"] + Self.trust + ["valid/basic.order"]).status == 2)
    }
}
