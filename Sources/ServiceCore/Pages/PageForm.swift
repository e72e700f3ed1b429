import Foundation
import Hummingbird
import OrdersWebProtocol
import WalletConsent
import WalletPrimitives

/// A page's form post, read whole up to a limit, and its token checked: the session's form token
/// for a signed-in page (compared in constant time), or the sign-in cookie's value on the sign-in
/// form. A post without the right token is ``WalletConsent/ConsentError/forgedRequest``.
package enum PageForm {
    /// Page forms are small: ids, dates, a search. A larger body is refused before it is read.
    package static let maximumSize = 64 * 1024

    package static func read(_ request: Request) async throws -> FormFields {
        let type = request.headers[.contentType]?.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() }
        guard type == "application/x-www-form-urlencoded" else {
            throw ServiceRequestError.unsupportedMediaType(
                request.headers[.contentType] ?? "none", accepted: ["application/x-www-form-urlencoded"])
        }
        let body = try await LimitedBody.collect(request, limit: maximumSize)
        return try FormFields(String(decoding: body, as: UTF8.self))
    }

    /// Throws unless the form's `csrf_token` is `expected`.
    package static func checkToken(_ fields: FormFields, expected: String?) throws(ConsentError) {
        try checkToken(presented: fields.value("csrf_token"), expected: expected)
    }

    /// Throws unless `presented` (a form's `csrf_token`) is `expected`.
    package static func checkToken(presented: String?, expected: String?) throws(ConsentError) {
        guard let expected, !expected.isEmpty, let presented,
            ConstantTime.equals(Array(presented.utf8), Array(expected.utf8))
        else { throw .forgedRequest }
    }

    /// The query of the request's URL as fields.
    package static func query(_ request: Request) throws -> FormFields {
        try FormFields(request.uri.query ?? "", name: "address")
    }
}
