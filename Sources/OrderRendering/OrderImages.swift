import Foundation
import OrderPackage

/// The images an order names, found as Wallet finds them — the reader's localization folder
/// first, then the package's root; the sharpest of `name`, `name@2x`, `name@3x` — and handed to
/// the page as `data:` URIs of the type their bytes show (``ImageSniffer``). A file that is no
/// PNG, JPEG, GIF or WebP image is not shown, whatever its name says.
struct OrderImages {
    let archive: ZipArchive
    let localization: String?

    /// The image's `data:` URI, or nil when the package has no image by that name.
    func dataURI(_ name: String?) -> String? {
        guard let name, !name.isEmpty else { return nil }
        let variants = Self.variants(of: name).reversed()
        let folders = (localization.map { ["\($0).lproj/"] } ?? []) + [""]
        for folder in folders {
            for variant in variants {
                guard let data = archive[folder + variant], let type = ImageSniffer.contentType(of: data) else { continue }
                return "data:\(type);base64,\(data.base64EncodedString())"
            }
        }
        return nil
    }

    /// `logo.png` → `logo.png`, `logo@2x.png`, `logo@3x.png`.
    static func variants(of name: String) -> [String] {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return [name] }
        return [name, "\(name[..<dot])@2x\(name[dot...])", "\(name[..<dot])@3x\(name[dot...])"]
    }
}
