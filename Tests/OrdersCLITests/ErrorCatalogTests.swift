import Foundation
import OrderStorage
import OrderTracking
import OrdersService
import OrdersWebProtocol
import TestArchiveTable
import Testing
import WalletCore
import WalletOrders
import WalletPrimitives

@testable import FinanceData
@testable import OrderPackage
@testable import orders

/// Every library error code: a category, an exit status from the CLI's one table, and a line in
/// docs/error-codes.md — and every documented code is one of them.
@Suite("Error codes: one shape, one exit table, all documented")
struct ErrorCatalogTests {
    /// One instance of every case of every public error type.
    static func samples() throws -> [any WalletError] {
        let client = try #require(ClientIdentifier(rawValue: "com.example"))
        let id = FullyQualifiedOrderIdentifier(orderTypeIdentifier: "order.com.example", orderIdentifier: "1")
        let timestamp = RFC3339Timestamp(Date(timeIntervalSince1970: 0))
        var samples: [any WalletError] = VerificationIssue.Code.allCases.filter(\.isError).map(IssueSample.init)
        samples += [
            ArchiveRejection([.notZip]),
            OrderSignerError.invalidCertificate(reason: "r"), OrderSignerError.invalidPrivateKey(reason: "r"),
            OrderSignerError.keyDoesNotMatchCertificate, OrderSignerError.signingFailed(reason: "r"),
            OrderSignerError.secretUnavailable(source: "$A", reason: "r"),
            OrderSignerError.secretInKeyLocation(attribute: "pin-value"),
            SigningIdentityError.notOrderTypeCertificate(reason: "r"),
            SigningIdentityError.wrongOrderType(certificate: "a", expected: "b"),
            SigningIdentityError.certificateExpired(reason: "r"), SigningIdentityError.untrustedChain(reason: "r"),
            SigningIdentityError.cannotSign(reason: "r"), SigningIdentityError.notFound(orderTypeIdentifier: "t"),
            SigningIdentityError.nothingStaged(orderTypeIdentifier: "t"),
            SigningIdentityError.notLoadableEverywhere(orderTypeIdentifier: "t", instances: ["a: r"]),
            AuthoringError.invalidContent(reason: "r"), AuthoringError.identifierMismatch(field: "f", given: "g", expected: "e"),
            AuthoringError.immutableField(field: "createdAt", stored: "s"),
            AuthoringError.orderNotFound(orderTypeIdentifier: "t", orderIdentifier: "i"), AuthoringError.contended(attempts: 4),
            AuthoringError.webServiceURLNotAllowed(given: "https://e.example/", serviceURL: nil),
            AuthoringError.reservedFileName("signature"), AuthoringError.publicURLRequired(orderTypeIdentifier: "t"),
            AuthoringError.versionChanged(basis: "0123"),
            TrackingError.unsigned(header: "h"), TrackingError.badSignature(header: "h"),
            TrackingError.stale(path: "ts", age: .seconds(400), limit: .seconds(300)),
            TrackingError.invalidBody(path: "p", reason: "r"), TrackingError.bodyTooLarge(size: 2, limit: 1),
            TrackingError.unsupportedEvent("e"), TrackingError.unknownEndpoint("trk_x"),
            TrackingError.invalidConfiguration(reason: "r"),
            TrustStoreError(reason: "r"), ArchiveWriteError(reason: "r"),
            OrderPackageBuilderError.noSources, OrderPackageBuilderError.unsafeName("a", reason: "r"),
            OrderPackageBuilderError.unreadableSource("a", reason: "r"),
            OrderStoreError.invalidArchive(VerificationReport(oversizedArchiveOf: nil, limit: 1)),
            OrderStoreError.conflictingVersion(id, updatedAt: timestamp),
            OrderStoreError.signerChanged(id, storedTeam: "A", incomingTeam: "B"),
            OrderStoreError.dataRestricted, OrderStoreError.requestAlreadyAnswered(idempotencyKey: "k"),
            OrderStoreError.eventAlreadyApplied(eventID: "e"),
            OrderStoreError.registrationLimit(.devicesPerOrder(limit: 1)),
            StorageError(reason: "r"), StorageError(reason: "r", isCorrupt: true),
            FinanceError.dataRestricted(.orders), FinanceError.historyTokenInvalid, FinanceError.unknown,
            FinanceAccessError.notAuthorized(client, status: .denied), FinanceAccessError.dataTypeUnavailable(.orders),
            FinanceAccessError.unknownAccount(UUID()), FinanceAccessError.notEntitled(client, orderTypeIdentifier: "t"),
            FinanceDataError.invalidFeed(path: "a", reason: "r"),
            FinanceDataError.unknownAccountReference("r", accountID: UUID()),
            FinanceDataError.inconsistentRecord("r", reason: "r"), FinanceDataError.feedTooLarge(size: nil, limit: 1),
            ConfigurationError(variable: "ORDERS_DATA_TYPES", value: "v", accepted: ["orders"]),
            APIKeyError.noOrderTypes, APIKeyError.unknownKey("k"), APIKeyError.secretMismatch("k"),
            WebServiceError.unauthorized, WebServiceError.invalidDeviceIdentifier, WebServiceError.invalidPushToken,
            ServiceRequestError.bodyTooLarge(limit: 1), ServiceRequestError.malformedBody(reason: "r", path: nil),
            ServiceRequestError.unsupportedMediaType("t", accepted: ["a"]),
            ServiceRequestError.invalidParameter(name: "n", reason: "r"), ServiceRequestError.noRoute,
            ServiceRequestError.unauthenticated, ServiceRequestError.methodNotAllowed(method: "PATCH", allowed: ["GET"]),
            ServiceRequestError.invalidHeader(name: "Host", reason: "r"), ServiceRequestError.malformedRequest(reason: "r"),
            ServiceRequestError.rateLimited(retryAfter: 1), ServiceRequestError.idempotencyKeyReused("k"),
            ConsentError.invalidRequest("r"), ConsentError.unknownClient, ConsentError.invalidGrant("r"),
            ConsentError.invalidClient,
            ConsentError.unsupportedGrantType("t"), ConsentError.invalidToken, ConsentError.signInThrottled(retryAfter: 1),
            ConsentError.wrongPassword, ConsentError.unacceptablePassword("r"), ConsentError.forgedRequest,
            ConsentError.invalidClientRegistration("r"), ConsentError.clientExists("c"),
            BackgroundDeliveryError.invalidURL("r"), BackgroundDeliveryError.urlNotAllowed("r"),
            BackgroundDeliveryError.tooManyEndpoints(limit: 5), BackgroundDeliveryError.noDataTypes,
            BackgroundDeliveryError.unknownEndpoint("e"),
        ]
        if case .failure(let error) = Result(catching: { try JSONParser().parse(Data("{".utf8)) }),
            let parse = error as? JSONParseError
        {
            samples.append(parse)
        }
        return samples
    }

    /// A finding as an error, for the codes that only exist as verification findings.
    struct IssueSample: WalletError {
        var issueCode: VerificationIssue.Code
        init(_ code: VerificationIssue.Code) { issueCode = code }
        var code: String { issueCode.rawValue }
        var message: String { "sample" }
        var category: ErrorCategory { .invalidInput }
    }

    @Test("every code has a category, an exit status in 1…7 and a message")
    func everyCodeMaps() throws {
        let samples = try Self.samples()
        #expect(samples.count > 60)
        for error in samples {
            let status = Failure.status(of: error)
            #expect((1...7).contains(status), "\(error.code)")
            #expect(!error.message.isEmpty && error.code.contains("."), "\(error.code)")
            #expect(Failure.line(error).hasPrefix(error.code + ": "))
        }
        // The documented statuses.
        let status = { (code: String) in samples.first { $0.code == code }.map(Failure.status(of:)) }
        #expect(status("store.unavailable") == 2 && status("store.corrupt") == 2 && status("archive.corrupt") == 1)
        #expect(status("access.notAuthorized") == 5 && status("finance.dataRestricted") == 6)
        #expect(status("access.dataTypeUnavailable") == 7 && status("access.notEntitled") == 1)
        #expect(status("configuration.invalid") == 2)
        #expect(status("store.conflictingVersion") == 1 && status("feed.invalid") == 1 && status("access.unknownAccount") == 1)
    }

    @Test("every code has an HTTP status from the service's one table, as documented")
    func everyCodeHasAnHTTPStatus() throws {
        let samples = try Self.samples()
        for error in samples {
            #expect((400...599).contains(HTTPStatusTable.status(of: error).code), "\(error.code)")
        }
        let status = { (code: String) in samples.first { $0.code == code }.map { HTTPStatusTable.status(of: $0).code } }
        #expect(status("webService.unauthorized") == 401 && status("api.unauthenticated") == 401)
        #expect(status("store.invalidArchive") == 422 && status("request.bodyTooLarge") == 413)
        #expect(status("request.unsupportedMediaType") == 415 && status("access.notEntitled") == 403)
        #expect(status("store.conflictingVersion") == 409 && status("finance.dataRestricted") == 503)
        #expect(status("access.dataTypeUnavailable") == 501 && status("store.unavailable") == 503)
        #expect(status("request.methodNotAllowed") == 405 && status("request.rateLimited") == 429)
        #expect(status("request.invalidHeader") == 400 && status("request.malformed") == 400)
        #expect(status("store.registrationLimit") == 409 && status("webService.invalidPushToken") == 400)
        #expect(status("webService.invalidDeviceIdentifier") == 400)
        #expect(status("consent.invalidToken") == 401 && status("consent.invalidClient") == 401)
        #expect(status("consent.forgedRequest") == 403 && status("consent.unknownClient") == 400)
        #expect(status("consent.signInThrottled") == 429 && status("consent.invalidGrant") == 400)
        #expect(status("delivery.invalidURL") == 400 && status("delivery.urlNotAllowed") == 400)
        #expect(status("delivery.tooManyEndpoints") == 409 && status("delivery.noDataTypes") == 400)
        #expect(status("delivery.unknownEndpoint") == 404)
    }

    @Test("every code is documented in docs/error-codes.md, and every documented code exists")
    func documented() throws {
        let readme = try String(
            contentsOf: TestArchiveTable.packageRoot.appendingPathComponent("docs/error-codes.md"), encoding: .utf8)
        let documented = Set(
            readme.split(separator: "\n").filter { $0.hasPrefix("| `") }.flatMap { line in
                line.split(separator: "|")[0].split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map {
                    String($0.element)
                }
            }.filter { $0.contains(".") && !$0.contains(" ") && $0.first?.isLowercase == true })
        let codes = Set(try Self.samples().map(\.code))
        #expect(codes.subtracting(documented).isEmpty, "undocumented: \(codes.subtracting(documented).sorted())")
        let stale = documented.subtracting(codes).subtracting(VerificationIssue.Code.allCases.map(\.rawValue))
        #expect(stale.isEmpty, "documented but never produced: \(stale.sorted())")
    }
}
