import FinanceData
import Foundation
import FuzzSupport
import OrderStorage
import OrdersWebProtocol
import WalletPrimitives

// What `orders serve` reads from a request before any store access: the first byte picks the
// parser, the rest is its input — Authorization (AppleOrder / Bearer), If-Modified-Since,
// If-None-Match, the registrations tag, a push-token body, a log body, a path identifier; and
// (first bytes 240–255, so the earlier selectors keep their parsers) a form body or query and
// HTTP Basic client credentials; (232–239) a background-delivery registration body and its URL;
// (224–231) a multipart/form-data body (boundary "B") and a content type's boundary.
// Properties: nothing crashes; credentials are never empty nor carry the scheme's spaces; an
// HTTP-date read back from its own formatting is the same instant; a tag parses to itself; form
// fields are bounded and read back from their own encoding; a registration and a webhook URL
// accepted are within their bounds, and the URL reads back as itself; a multipart form has at
// most 8 parts, each a piece of the body holding no delimiter.
private let tag = EntityTag(opaque: String(repeating: "ab", count: 32))

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzServiceRequest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput.data(UnsafeRawPointer(start), count)
    guard let selector = input.first else { return 0 }
    let body = input.dropFirst()
    let text = String(decoding: body, as: UTF8.self)
    if selector >= 248 {
        if let credentials = BasicCredentials(header: "Basic " + text),
            let decoded = Data(base64Encoded: text).map({ String(decoding: $0, as: UTF8.self) })
        {
            // The user ends at the first colon; one inside it must have come percent-encoded.
            let user = decoded.prefix { $0 != ":" }
            FuzzInput.check(
                !credentials.user.contains(":") || user.contains("%3A") || user.contains("%3a"), "a colon in the user")
        }
        return 0
    }
    if selector >= 224 && selector < 232 {
        if let boundary = MultipartForm.boundary(of: "multipart/form-data; boundary=" + text) {
            FuzzInput.check((1...70).contains(boundary.utf8.count), "a boundary of \(boundary.utf8.count) bytes")
            FuzzInput.check(boundary.utf8.allSatisfy { (0x20...0x7E).contains($0) }, "a boundary with a control byte")
        }
        let bytes = Array(body)
        if let form = try? MultipartForm(body: bytes, boundary: "B") {
            FuzzInput.check(form.parts.count <= MultipartForm.maximumParts, "\(form.parts.count) parts")
            for part in form.parts {
                FuzzInput.check(
                    part.content.startIndex >= 0 && part.content.endIndex <= bytes.count, "a part outside the body")
                FuzzInput.check(part.content.firstRange(of: Array("\r\n--B".utf8)) == nil, "a part holding a delimiter")
            }
        }
        return 0
    }
    if selector >= 232 && selector < 240 {
        if let registration = try? DeliveryRegistrationBody.parse(Data(body)) {
            FuzzInput.check(
                (1...DeliveryRegistrationBody.maximumTypes).contains(registration.types.count),
                "\(registration.types.count) types")
            FuzzInput.check(registration.url.utf8.count <= 2_048 && registration.frequency.utf8.count <= 32, "a long member")
        }
        if let url = try? WebhookURL(text) {
            FuzzInput.check(url.text.utf8.count <= WebhookURL.maximumLength, "a URL of \(url.text.utf8.count) bytes")
            FuzzInput.check(url.text.utf8.allSatisfy { (0x21...0x7E).contains($0) }, "a URL with a byte outside printable ASCII")
            FuzzInput.check(!url.host.isEmpty && (1...65_535).contains(url.port), "a URL without host or port")
            FuzzInput.check((try? WebhookURL(url.text)) == url, "a URL that does not read back")
        }
        return 0
    }
    if selector >= 240 {
        if let fields = try? FormFields(text) {
            FuzzInput.check(fields.pairs.count <= FormFields.maximumFields, "\(fields.pairs.count) fields")
            FuzzInput.check((try? FormFields(fields.encoded)) == fields, "form fields do not read back from their encoding")
        }
        return 0
    }
    switch selector % 7 {
    case 0:
        for scheme in ["AppleOrder", "Bearer"] {
            if let credentials = AuthorizationHeader.credentials(scheme: scheme, in: text) {
                FuzzInput.check(!credentials.isEmpty, "empty credentials")
                FuzzInput.check(credentials.trimmingSpaces == credentials[...], "credentials keep outer spaces")
            }
        }
    case 1:
        if let seconds = HTTPDate.parse(text), (-62_135_596_800...253_402_300_799).contains(seconds) {
            FuzzInput.check(HTTPDate.parse(HTTPDate.format(seconds)) == seconds, "\(seconds) does not read back")
        }
    case 2:
        _ = tag.isMatched(byIfNoneMatch: text)
    case 3:
        if let parsed = OrderChangeTag(text: text) {
            FuzzInput.check(OrderChangeTag(text: parsed.description) == parsed, "tag \(parsed) does not read back")
        }
    case 4:
        if let token = try? PushTokenBody.parse(Data(body)) {
            FuzzInput.check(!token.isEmpty && token.utf8.count <= PushTokenBody.maximumLength, "token out of bounds")
        }
    case 5:
        if let entries = try? DeviceLogEntries.parse(Data(body)) {
            let summary = DeviceLogEntries.summary(of: entries, maximumLength: 2048)
            FuzzInput.check(summary.utf8.count <= 2048, "a device log line of \(summary.utf8.count) bytes")
        }
    default:
        if let identifier = try? PathIdentifier.decoded(text, name: "orderIdentifier") {
            FuzzInput.check(!identifier.isEmpty, "an empty identifier")
            FuzzInput.check(
                !identifier.unicodeScalars.contains(where: MessageText.isControl), "a control character in an identifier")
        }
    }
    return 0
}

FuzzDriver.run(fuzzServiceRequest)
