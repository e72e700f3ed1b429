// snippet.hide
// Apple Pay's order details from an authoring answer, in an iOS app (docs/authoring.md). PassKit
// exists on Apple's systems only: on Linux this file compiles to nothing but is still parsed.
#if canImport(PassKit)
    import Foundation
    import PassKit

    struct OrderDetailsAnswer: Decodable {
        var orderTypeIdentifier: String
        var orderIdentifier: String
        var webServiceURL: URL
        var authenticationToken: String
    }

    func authorizationResult(from answer: OrderDetailsAnswer) -> PKPaymentAuthorizationResult {
        // snippet.show
        let result = PKPaymentAuthorizationResult(status: .success, errors: nil)
        result.orderDetails = PKPaymentOrderDetails(
            orderTypeIdentifier: answer.orderTypeIdentifier, orderIdentifier: answer.orderIdentifier,
            webServiceURL: answer.webServiceURL, authenticationToken: answer.authenticationToken)
        // snippet.hide
        return result
    }
#endif
