import OrdersWebProtocol
import Testing

@Suite("multipart/form-data, strictly and within bounds")
struct MultipartFormTests {
    static func body(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("the boundary: from the Content-Type, quoted or not, 1–70 characters; anything else is no form")
    func boundary() {
        #expect(MultipartForm.boundary(of: "multipart/form-data; boundary=abc") == "abc")
        #expect(MultipartForm.boundary(of: "Multipart/Form-Data;BOUNDARY=\"a b:c\"") == "a b:c")
        #expect(MultipartForm.boundary(of: "multipart/form-data") == nil)
        #expect(MultipartForm.boundary(of: "multipart/mixed; boundary=abc") == nil)
        #expect(MultipartForm.boundary(of: "multipart/form-data; boundary=" + String(repeating: "x", count: 71)) == nil)
        #expect(MultipartForm.boundary(of: "multipart/form-data; boundary=\"\"") == nil)
        #expect(MultipartForm.boundary(of: "multipart/form-data; boundary=\"ends with space \"") == nil)
    }

    @Test("parts: names, file names, contents byte for byte (CRLF inside kept), a preamble skipped")
    func parts() throws {
        let form = try MultipartForm(
            body: Self.body(
                "preamble\r\n--B\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\nabc\r\n"
                    + "--B\r\nContent-Disposition: form-data; name=\"archive\"; filename=\"a.order\"\r\n"
                    + "Content-Type: application/octet-stream\r\n\r\nline 1\r\nline 2\r\n--B--\r\nepilogue"),
            boundary: "B")
        #expect(form.parts.map(\.name) == ["csrf_token", "archive"])
        #expect(String(decoding: try #require(form["csrf_token"]).content, as: UTF8.self) == "abc")
        #expect(form["archive"]?.filename == "a.order")
        #expect(String(decoding: try #require(form["archive"]).content, as: UTF8.self) == "line 1\r\nline 2")
        #expect(form["missing"] == nil)
    }

    @Test(
        "refused, naming what is wrong: no boundary in the body, no closing one, too many parts, headers too long, no name",
        arguments: [
            ("no part", "nothing here", "its boundary never appears"),
            ("unclosed", "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx", "its last boundary is missing"),
            ("no line break", "--Bx\r\n", "not followed by a line break"),
            (
                "headers", "--B\r\nX: " + String(repeating: "h", count: 5000) + "\r\n\r\nx\r\n--B--",
                "do not end within 4096 bytes"
            ),
            ("no name", "--B\r\nContent-Disposition: form-data\r\n\r\nx\r\n--B--", "with a name"),
            ("not form-data", "--B\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nx\r\n--B--", "with a name"),
            (
                "nine parts",
                String(repeating: "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n", count: 9) + "--B--",
                "more than 8 parts"
            ),
        ])
    func refused(_ name: String, _ text: String, _ reason: String) {
        #expect {
            _ = try MultipartForm(body: Self.body(text), boundary: "B")
        } throws: { error in
            guard case .malformedBody(let message, _)? = error as? ServiceRequestError else { return false }
            return message.contains(reason)
        }
    }
}
