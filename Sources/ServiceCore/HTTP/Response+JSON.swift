import Foundation
import HTTPTypes
import Hummingbird
import WalletWire

package extension Response {
    /// `body` in the wire format (WalletWire's one encoder), as `application/json`.
    static func json(status: HTTPResponse.Status, body: some Encodable, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        let bytes =
            (try? WireFormat.encode(body))
            ?? Data(#"{"error":{"code":"internal","message":"unencodable answer","path":null},"report":null}"#.utf8)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
