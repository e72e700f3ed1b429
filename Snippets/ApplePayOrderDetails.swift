// snippet.hide
// Apple Pay's order details from an authoring answer, in an iOS app (docs/authoring.md).
//
// PassKit exists on Apple's systems only. Elsewhere the two PassKit types the block uses are
// declared below with the initializers and property Apple's SDK declares (iOS 16), so that the
// block type-checks here against the same API; and the program runs: it reads a `PUT …/content`
// answer on standard input and prints the order details it hands Apple Pay, one per line, which
// the merchant API's tests compare with the answer the service gave.
import Foundation

#if canImport(PassKit)
    import PassKit
#else
    enum PKPaymentAuthorizationStatus { case success, failure }

    final class PKPaymentOrderDetails {
        let orderTypeIdentifier: String
        let orderIdentifier: String
        let webServiceURL: URL
        let authenticationToken: String

        init(orderTypeIdentifier: String, orderIdentifier: String, webServiceURL: URL, authenticationToken: String) {
            self.orderTypeIdentifier = orderTypeIdentifier
            self.orderIdentifier = orderIdentifier
            self.webServiceURL = webServiceURL
            self.authenticationToken = authenticationToken
        }
    }

    final class PKPaymentAuthorizationResult {
        let status: PKPaymentAuthorizationStatus
        var orderDetails: PKPaymentOrderDetails?

        init(status: PKPaymentAuthorizationStatus, errors: [any Error]?) { self.status = status }
    }
#endif

// snippet.show
/// The part of the service's authoring answer that Apple Pay takes.
struct AuthoringAnswer: Decodable {
    struct OrderDetails: Decodable {
        var orderTypeIdentifier: String
        var orderIdentifier: String
        var webServiceURL: URL
        var authenticationToken: String
    }
    var orderDetails: OrderDetails
}

func authorizationResult(answerBody: Data) throws -> PKPaymentAuthorizationResult {
    let details = try JSONDecoder().decode(AuthoringAnswer.self, from: answerBody).orderDetails
    let result = PKPaymentAuthorizationResult(status: .success, errors: nil)
    result.orderDetails = PKPaymentOrderDetails(
        orderTypeIdentifier: details.orderTypeIdentifier, orderIdentifier: details.orderIdentifier,
        webServiceURL: details.webServiceURL, authenticationToken: details.authenticationToken)
    return result
}
// snippet.hide

do {
    let result = try authorizationResult(answerBody: FileHandle.standardInput.readDataToEndOfFile())
    guard let details = result.orderDetails else { exit(1) }
    print(
        details.orderTypeIdentifier, details.orderIdentifier, details.webServiceURL.absoluteString, details.authenticationToken,
        separator: "\n")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
