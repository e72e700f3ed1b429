import Foundation
import OrderPackage
import OrdersWebProtocol

/// What makes a retry the same request for `Idempotency-Key` (docs/authoring.md, "Retries"): its
/// meaning, not its bytes. The method, the path and the body's media type always; then a JSON
/// body's bytes, or a multipart form's parts in order — each part's name, media type and bytes —
/// but not its boundary or file names, which every client (curl, requests, a browser's fetch)
/// draws anew on a retry.
///
/// The SHA-256 of an unambiguous encoding: every piece is written with its length first, so no
/// two different requests encode alike.
enum RequestFingerprint {
    static func digest(method: String, path: String, mediaType: String, json body: Data) -> String {
        var encoding = header(method: method, path: path, mediaType: mediaType)
        append(Array(body), to: &encoding)
        return SHA256Digest.hex(of: Data(encoding))
    }

    static func digest(method: String, path: String, mediaType: String, form: MultipartForm) -> String {
        var encoding = header(method: method, path: path, mediaType: mediaType)
        for part in form.parts {
            append(Array(part.name.utf8), to: &encoding)
            append(Array(Self.essence(of: part.contentType ?? "").utf8), to: &encoding)
            append(part.content, to: &encoding)
        }
        return SHA256Digest.hex(of: Data(encoding))
    }

    /// A media type without its parameters, in lower case: `multipart/form-data`.
    static func essence(of contentType: String) -> String {
        (contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: .whitespaces).lowercased()
    }

    private static func header(method: String, path: String, mediaType: String) -> [UInt8] {
        var encoding: [UInt8] = []
        for piece in [method, path, essence(of: mediaType)] { append(Array(piece.utf8), to: &encoding) }
        return encoding
    }

    private static func append(_ bytes: some Collection<UInt8>, to encoding: inout [UInt8]) {
        encoding += Array("\(bytes.count):".utf8)
        encoding += bytes
    }
}
