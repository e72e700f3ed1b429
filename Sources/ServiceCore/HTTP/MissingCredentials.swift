import WalletPrimitives

/// A data API request that carried no credentials at all: `consent.invalidToken`'s `401`, whose
/// challenge names no error (``HTTPStatusTable``).
package struct MissingCredentials: WalletError {
    package var code: String { "consent.invalidToken" }
    package var message: String { "this call needs an access token: Authorization: Bearer <token>" }
    package var category: ErrorCategory { .unauthorized }

    package init() {}
}
