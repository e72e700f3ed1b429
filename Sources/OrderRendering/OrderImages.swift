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
        for candidate in OrderResources.candidates(for: name, localization: localization) {
            guard let data = archive[candidate], let type = ImageSniffer.contentType(of: data) else { continue }
            return "data:\(type);base64,\(data.base64EncodedString())"
        }
        return nil
    }
}
