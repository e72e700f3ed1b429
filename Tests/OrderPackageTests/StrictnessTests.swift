import Foundation
import TestArchiveTable
import Testing
import WalletPrimitives

@testable import OrderPackage

/// What verification let through until issue 56 — each accepted by `orders verify` and by
/// `openssl cms -verify` — now refused with its code and place, in uploads and authored content
/// alike; and the amount rule orders and financial data share.
@Suite("Verification as strict as Wallet: images, names, keys, amounts")
struct StrictnessTests {
    static func codes(_ archive: Data) throws -> (errors: [String: String?], report: VerificationReport) {
        let report = try TestOrderArchive.verifier().verify(archive)
        var errors: [String: String?] = [:]
        for issue in report.errors { errors[issue.code.rawValue] = issue.path }
        return (errors, report)
    }

    /// A PNG header declaring `width`×`height`.
    static func png(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        for value in [width, height] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        return Data(bytes + [8, 6, 0, 0, 0, 0, 0, 0, 0])
    }

    /// The smallest baseline JPEG header a decoder reads a size from: SOI, an APP0, SOF0.
    static func jpeg(width: UInt16, height: UInt16) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0x4A, 0x46, 0xFF, 0xC0, 0, 11, 8]
        for value in [height, width] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        return Data(bytes + [1, 1, 0x11, 0, 0xFF, 0xD9])
    }

    @Test(
        "a file named as an image is an image: not a package file, an image extension, PNG or JPEG bytes as named, within 4096 a side",
        arguments: [
            ("merchant.logo names order.json", "order.imageName", "merchant.logo"),
            ("logo.png holds text", "order.invalidImage", "merchant.logo"),
            ("item.png holds SVG", "order.invalidImage", "lineItems[0].image"),
            ("a PNG named .jpg", "order.invalidImage", "merchant.logo"),
            ("a PNG of 5000×10", "order.invalidImage", "merchant.logo"),
            ("a logo named .gif", "order.imageName", "merchant.logo"),
        ])
    func images(_ case: String, _ code: String, _ path: String) throws {
        let archive = try TestOrderArchive.make(
            edit: { order in
                var merchant = order["merchant"] as? [String: Any] ?? [:]
                switch `case` {
                case "merchant.logo names order.json": merchant["logo"] = "order.json"
                case "a PNG named .jpg": merchant["logo"] = "logo.jpg"
                case "a logo named .gif": merchant["logo"] = "logo.gif"
                default: break
                }
                order["merchant"] = merchant
            },
            files: { files in
                switch `case` {
                case "logo.png holds text": files["logo.png"] = Data("not a png".utf8)
                case "item.png holds SVG": files["item.png"] = Data(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8)
                case "a PNG named .jpg": files["logo.jpg"] = files["logo.png"]
                case "a PNG of 5000×10": files["logo.png"] = Self.png(width: 5000, height: 10)
                case "a logo named .gif": files["logo.gif"] = files["logo.png"]
                default: break
                }
            })
        let (errors, report) = try Self.codes(archive)
        #expect(errors[code] == .some(path), "\(report.errors)")
        #expect(!report.isValid)
    }

    @Test("PNG and JPEG headers as decoders read them; anything else is named by its first bytes")
    func headers() throws {
        func read(_ data: Data) -> String {
            switch ImageHeader.read(data) {
            case .success(let header): "\(header.format.rawValue) \(header.width)×\(header.height)"
            case .failure(let error): error.reason
            }
        }
        #expect(read(Self.png(width: 40, height: 30)) == "PNG 40×30")
        #expect(read(Self.jpeg(width: 64, height: 48)) == "JPEG 64×48")
        #expect(read(Self.png(width: 0, height: 4)) == "its header declares 0×4 pixels")
        #expect(read(Self.png(width: 4097, height: 4)) == "it is 4097×4 pixels; at most 4096 a side")
        #expect(read(Data("GIF89a".utf8)) == "its bytes are neither PNG nor JPEG (they begin 47 49 46 38 39 61)")
        #expect(read(Data()) == "the file is empty")
        #expect(read(Data([0xFF, 0xD8, 0xFF, 0xDA, 0, 2])) == "a JPEG start without a frame header (SOF) in its first 64 KiB")
        #expect(read(try TestArchiveTable.data("sources/small/logo.png")) == "PNG 4×4")
    }

    @Test(
        "names that read as another are refused: control and bidirectional characters, names equal after case folding and NFC",
        arguments: [
            (["order.json", "logo.png", "LOGO.png"], "archive.ambiguousName", "logo.png"),
            (["order.json", "Order.json"], "archive.ambiguousName", "order.json"),
            (["manifest.json", "MANIFEST.JSON"], "archive.ambiguousName", "manifest.json"),
            (["caf\u{E9}.png", "cafe\u{301}.png"], "archive.ambiguousName", "caf\u{E9}.png"),
            (["logo\u{202E}gnp.exe"], "archive.unsafePath", "logo\u{202E}gnp.exe"),
            (["logo\u{200F}.png"], "archive.unsafePath", "logo\u{200F}.png"),
            (["logo\u{2066}.png"], "archive.unsafePath", "logo\u{2066}.png"),
            (["logo\u{85}.png"], "archive.unsafePath", "logo\u{85}.png"),
        ])
    func names(_ names: [String], _ code: String, _ named: String) throws {
        let zip = RawZip(files: names.map { ($0, Data("x".utf8)) }).bytes()
        let report = try TestOrderArchive.verifier().verify(zip)
        let issue = try #require(report.errors.first { $0.code.rawValue == code }, "\(report.errors)")
        // The place is the later name of a pair, which names the earlier one in its message.
        #expect(issue.path == named || issue.message.contains(named), "\(issue)")
    }

    @Test("authored content passes the same name checks before anything is signed")
    func authoredNames() throws {
        let verifier = try TestOrderArchive.verifier()
        let order = try TestArchiveTable.data("sources/small/order.json")
        let logo = try TestArchiveTable.data("sources/small/logo.png")
        let report = verifier.checkUnsigned(files: [
            "order.json": order, "logo.png": logo, "LOGO.PNG": logo, "item.png": logo, "x\u{202E}.png": logo,
        ])
        let codes = Set(report.errors.map(\.code.rawValue))
        #expect(codes.isSuperset(of: ["archive.ambiguousName", "archive.unsafePath"]), "\(report.errors)")
        let svg = verifier.checkUnsigned(files: ["order.json": order, "logo.png": Data("<svg/>".utf8), "item.png": logo])
        #expect(svg.errors.map(\.code.rawValue) == ["order.invalidImage"])
    }

    @Test("a key holding a control character is refused at its path, however deep")
    func controlCharacterKeys() throws {
        let archive = try TestOrderArchive.make { order in
            order["nul\u{0}key"] = 1
            order["extra"] = ["inner\u{1B}[31m": true]
        }
        let (errors, report) = try Self.codes(archive)
        let keys = report.errors.filter { $0.code.rawValue == "order.invalidKey" }.compactMap(\.path)
        #expect(keys.count == 2, "\(report.errors)")
        #expect(errors["order.invalidKey"] != nil)
        #expect(!report.warnings.contains { $0.code.rawValue == "order.unknownKey" && ($0.path ?? "").contains("nul") })
    }

    @Test(
        "an amount is a finite decimal of at most 26 digits before the point and 12 after, written as a string or a number",
        arguments: [
            ("1e999999", false), ("1e-999999", false), ("1.25e2", true), ("5E-1", true), ("12.50", true),
            ("123456789012345678901234567", false), ("0.1234567890123", false), ("1e26", false), ("1e25", true),
        ])
    func numericAmounts(_ literal: String, _ accepted: Bool) throws {
        // JSONSerialization cannot write a number it does not hold: the literal goes in as text.
        let marker = "AMOUNT_LITERAL_MARKER"
        let archive = try TestOrderArchive.make(
            edit: { order in
                var payment = order["payment"] as? [String: Any] ?? [:]
                var total = payment["total"] as? [String: Any] ?? [:]
                total["amount"] = marker
                payment["total"] = total
                order["payment"] = payment
            },
            files: { files in
                let text = String(decoding: files["order.json"] ?? Data(), as: UTF8.self)
                files["order.json"] = Data(text.replacingOccurrences(of: "\"\(marker)\"", with: literal).utf8)
            })
        let (errors, report) = try Self.codes(archive)
        #expect(report.isValid == accepted, "\(report.errors)")
        if !accepted { #expect(errors["order.invalidValue"] == .some("payment.total.amount")) }
        #expect(report.warnings.contains { $0.code.rawValue == "order.numericAmount" })
        // The same literal as a string: the same verdict (an exponent is a number's form only).
        if !literal.contains(where: { $0 == "e" || $0 == "E" }) {
            #expect((AmountLiteral.problem(literal) == nil) == accepted)
        }
    }

    @Test("schemaVersion 2 is refused with the reason: Apple documents version 1 only")
    func schemaVersionTwo() throws {
        let archive = try TestOrderArchive.make { $0["schemaVersion"] = 2 }
        let report = try TestOrderArchive.verifier().verify(archive)
        let issue = try #require(report.errors.first { $0.path == "schemaVersion" })
        #expect(issue.code.rawValue == "order.invalidValue")
        #expect(issue.message.contains("Apple's Order reference documents version 1"), "\(issue.message)")
    }
}
