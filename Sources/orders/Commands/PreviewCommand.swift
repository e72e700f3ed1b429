import ArgumentParser
import Foundation
import OrderPackage
import OrderRendering

/// `orders preview`: the order as a customer will see it, before the archive is shipped.
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Render an order package as a self-contained HTML page.",
        discussion: CommandGuide.discussion(
            "preview",
            """
            Verifies the archive first: an invalid one gets the verification report on stderr and \
            no page. The page holds everything (images as data: URIs, the style inline, no script, \
            no network) and follows the reader's light or dark setting.
            With --png it also saves a screenshot through headless Chromium (chromium on PATH or \
            ORDERS_CHROMIUM), in the light scheme unless --dark.
            Exit status: 0 written, 1 invalid archive, 2 usage or I/O error (Chromium missing or \
            failing included).
            """)
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the page here (- for stdout, the default).", valueName: "file"))
    var output = "-"

    @OptionGroup var language: LocaleOptions

    @Option(help: ArgumentHelp("Also save a screenshot of the page as PNG.", valueName: "file"))
    var png: String?

    @Option(
        help: ArgumentHelp(
            "The screenshot's width and height in CSS pixels, or its width alone: then as tall as the page (default: 430, as tall as the page).",
            valueName: "WxH"),
        transform: ScreenshotSize.parse)
    var pngSize = ScreenshotSize(width: 430, height: nil)

    @Flag(help: "Take the screenshot in the dark color scheme.")
    var dark = false

    @OptionGroup var trust: TrustOptions

    @Argument(help: ArgumentHelp("The order package to render.", valueName: "file"))
    var file: String

    func run() async throws {
        let verifier = OrderVerifier(trustStore: try trust.trustStore())
        let bytes: Data
        switch try FileInput.read(file, limit: verifier.limits.maximumArchiveSize) {
        case .complete(let data): bytes = data
        case .tooLarge(let size):
            let report = VerificationReport(oversizedArchiveOf: size, limit: verifier.limits.maximumArchiveSize)
            Output.error(ReportFormatter.human(file: file, report: report))
            throw ExitCode(ExitStatus.invalid)
        }
        let report = verifier.verify(bytes)
        guard report.isValid, let order = report.order else {
            Output.error(ReportFormatter.human(file: file, report: report))
            throw ExitCode(ExitStatus.invalid)
        }
        let archive = try ZipArchive(reading: bytes, limits: verifier.limits)
        let page = OrderRenderer(languages: language.preferred).render(order, archive: archive)
        let document = Data(page.document().utf8)
        try FileOutput.write(document, to: output)
        if let png { try HeadlessChromium.screenshot(of: document, to: png, size: pngSize, dark: dark) }
    }
}

/// `430x2400`, or `430`: a width, and a height or none (as tall as the page).
struct ScreenshotSize {
    var width: Int
    var height: Int?

    init(width: Int, height: Int?) {
        self.width = width
        self.height = height
    }

    /// `--png-size`'s value; a usage error (exit 2) otherwise.
    static func parse(_ text: String) throws -> ScreenshotSize {
        guard let size = ScreenshotSize(text) else {
            throw ValidationError("--png-size takes WIDTHxHEIGHT or WIDTH, e.g. 430x2400 or 430.")
        }
        return size
    }

    init?(_ text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let width = Int(parts[0]), (100...8_000).contains(width) else { return nil }
        if parts.count == 2 {
            guard let height = Int(parts[1]), (100...16_000).contains(height) else { return nil }
            self.height = height
        } else {
            self.height = nil
        }
        self.width = width
    }
}
