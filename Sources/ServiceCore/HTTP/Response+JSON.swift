import Foundation
import HTTPTypes
import Hummingbird
import WalletWire

package extension Response {
    /// `body` in the wire format (WalletWire's one encoder), as `application/json`.
    static func json(status: HTTPResponse.Status, body: some Encodable, headers: HTTPFields = [:]) -> Response {
        json(status: status, encoded: jsonBytes(body), headers: headers)
    }

    /// An answer already encoded with ``jsonBytes(_:)`` (one kept to be sent again), as
    /// `application/json`.
    static func json(status: HTTPResponse.Status, encoded bytes: Data, headers: HTTPFields = [:]) -> Response {
        json(status: status, buffer: ByteBuffer(bytes: bytes), headers: headers)
    }

    private static func json(status: HTTPResponse.Status, buffer: ByteBuffer, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: buffer))
    }

    /// `body` written by its own ``WalletWire/WireJSONWritable`` conformance — no `Encodable`
    /// dispatch, no dynamic cast, no copy through `Data` — as `application/json`.
    static func json(status: HTTPResponse.Status, written body: some WireJSONWritable, headers: HTTPFields = [:]) -> Response {
        var writer = WireJSONWriter()
        body.write(to: &writer)
        return json(status: status, buffer: ByteBuffer(bytes: writer.bytes), headers: headers)
    }

    /// `body` in the wire format; an error body if it cannot be encoded.
    static func jsonBytes(_ body: some Encodable) -> Data {
        (try? WireFormat.encode(body))
            ?? Data(#"{"error":{"code":"internal","message":"unencodable answer","path":null},"report":null}"#.utf8)
    }
}
