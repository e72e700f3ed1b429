import Foundation
import OrderPackage

/// An order's barcode drawn as inline SVG: QR Code and Code 128 from this module's encoders,
/// with their quiet zones, dark on a white ground in both color schemes (scanners need the
/// contrast). PDF417 and Aztec have no encoder here: ``svg(for:)`` returns nil and the page shows
/// the message as text.
enum BarcodeSVG {
    /// The symbol, or nil when the format has no encoder or the message cannot be encoded.
    static func svg(for barcode: Order.Barcode, label: String) -> String? {
        let label = HTMLText.escape(label)
        switch barcode.format {
        case .qr:
            guard let code = QRCode(bytes: bytes(of: barcode)) else { return nil }
            return qr(code, label: label)
        case .code128:
            guard let code = Code128(barcode.message) else { return nil }
            return code128(code, label: label)
        case .pdf417, .aztec:
            return nil
        }
    }

    /// The message's bytes in its `messageEncoding`: ISO 8859-1 (PassKit's default) when every
    /// character has a byte there, UTF-8 otherwise or when the order asks for it.
    static func bytes(of barcode: Order.Barcode) -> [UInt8] {
        let encoding = barcode.messageEncoding?.lowercased() ?? "iso-8859-1"
        if encoding == "iso-8859-1" || encoding == "latin1", let latin1 = barcode.message.data(using: .isoLatin1) {
            return Array(latin1)
        }
        return Array(barcode.message.utf8)
    }

    static func qr(_ code: QRCode, label: String) -> String {
        let quiet = 4
        let side = code.size + 2 * quiet
        var path = ""
        for (y, row) in code.modules.enumerated() {
            var x = 0
            while x < code.size {
                guard row[x] else {
                    x += 1
                    continue
                }
                var end = x
                while end < code.size && row[end] { end += 1 }
                path += "M\(x + quiet) \(y + quiet)h\(end - x)v1h-\(end - x)z"
                x = end
            }
        }
        return """
            <svg class="barcode qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" role="img" \
            aria-label="\(label)" shape-rendering="crispEdges"><rect width="\(side)" height="\(side)" fill="#fff"/>\
            <path fill="#000" d="\(path)"/></svg>
            """
    }

    static func code128(_ code: Code128, label: String) -> String {
        let quiet = 10
        let height = 50
        let width = code.moduleCount + 2 * quiet
        var path = ""
        var x = quiet
        for (index, element) in code.widths.enumerated() {
            if index % 2 == 0 { path += "M\(x) 0h\(element)v\(height)h-\(element)z" }
            x += element
        }
        return """
            <svg class="barcode linear" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(width) \(height)" role="img" \
            aria-label="\(label)" preserveAspectRatio="none" shape-rendering="crispEdges">\
            <rect width="\(width)" height="\(height)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }
}
