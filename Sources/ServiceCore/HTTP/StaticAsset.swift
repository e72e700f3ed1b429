import HTTPTypes
import Hummingbird
import NIOCore

/// A stylesheet or script served under a name that changes with its contents (`?v=` its
/// digest): cached for a year, never revalidated, never sniffed.
package enum StaticAsset {
    package static func response(_ text: String, type: String, version: String) -> Response {
        var headers: HTTPFields = [.contentType: type, .cacheControl: "public, max-age=31536000, immutable"]
        headers[.eTag] = "\"\(version)\""
        if let name = HTTPField.Name("X-Content-Type-Options") { headers[name] = "nosniff" }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

/// The media type of a signed order archive (`.order`), as Wallet sends and expects it.
package let orderArchiveMediaType = "application/vnd.apple.finance.order"
