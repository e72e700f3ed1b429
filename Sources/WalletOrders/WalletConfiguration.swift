import Foundation
import Logging

/// How a deployment runs: which data it provides, how orders are verified and consented to,
/// how authorization is asked for, history pacing and retention, and the injected clock and
/// logger.
public struct WalletConfiguration: Sendable {
    /// Which data types this deployment provides (constant for the life of the process).
    public var availability: DataAvailability
    public var verifier: OrderVerifier
    /// Asked before an order is added (`.cancelled` when it declines).
    public var orderConsent: any OrderConsentPrompt
    /// Asked by `requestAuthorization()` while a client is `notDetermined`.
    public var authorizationPrompt: any AuthorizationPrompt
    public var history: HistoryConfiguration
    /// How many devices the Orders web service registers per order, and orders per device.
    public var registrationLimits: RegistrationLimits
    /// Lifetimes and limits of the owner's sessions, sign-ins, codes and tokens (``FinanceConsent``).
    public var consent: ConsentPolicy
    /// Where clients' background deliveries may go, and how many endpoints a client may have.
    public var backgroundDelivery: BackgroundDeliveryPolicy
    /// How long a merchant API key, once read, is used without reading it again (1 s): a key
    /// revoked by another process sharing the store is refused within this bound; `.zero` reads
    /// it on every request. Revoking through this store takes effect at once.
    public var apiKeyStaleness: Duration
    public var clock: @Sendable () -> Date
    /// Runs between signing a package and checking it, and may change it: for tests that prove
    /// the check still catches what goes wrong there, or that store another version meanwhile.
    @_spi(Testing) public var authoringFault: (@Sendable (SignedOrderPackage) async throws -> SignedOrderPackage)?
    public var logger: Logger

    public init(
        availability: DataAvailability = DataAvailability(), verifier: OrderVerifier = OrderVerifier(),
        orderConsent: any OrderConsentPrompt = AddWithoutAsking(),
        authorizationPrompt: any AuthorizationPrompt = DenyingAuthorizationPrompt(),
        history: HistoryConfiguration = HistoryConfiguration(), registrationLimits: RegistrationLimits = .default,
        consent: ConsentPolicy = ConsentPolicy(), backgroundDelivery: BackgroundDeliveryPolicy = BackgroundDeliveryPolicy(),
        apiKeyStaleness: Duration = .seconds(1), clock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "wallet-orders")
    ) {
        self.availability = availability
        self.verifier = verifier
        self.orderConsent = orderConsent
        self.authorizationPrompt = authorizationPrompt
        self.history = history
        self.registrationLimits = registrationLimits
        self.consent = consent
        self.backgroundDelivery = backgroundDelivery
        self.apiKeyStaleness = apiKeyStaleness
        self.clock = clock
        self.logger = logger
    }
}
