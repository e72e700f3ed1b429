import Foundation
import Logging

/// The checks every data call goes through, the same for orders and financial data:
/// availability (configuration), restriction (operator, shared by every process), and for
/// financial data, authorization.
public struct AccessControl: Sendable {
    public let availability: DataAvailability
    public let repository: any AccessRepository
    public let logger: Logger

    public init(availability: DataAvailability, repository: any AccessRepository, logger: Logger) {
        self.availability = availability
        self.repository = repository
        self.logger = logger
    }

    /// Throws ``FinanceAccessError/dataTypeUnavailable(_:)`` (logged at error level: calling an
    /// unavailable type is a programming error) or ``FinanceError/dataRestricted(_:)``.
    public func checkUsable(_ type: DataType, for operation: String) async throws {
        try checkAvailable(type, for: operation)
        try checkNotRestricted(type, restrictedSince: try await repository.restriction(of: type))
    }

    /// The availability half of ``checkUsable(_:for:)``, for a caller that reads the restriction
    /// together with its data (one snapshot, one read) and then calls
    /// ``checkNotRestricted(_:restrictedSince:)``.
    public func checkAvailable(_ type: DataType, for operation: String) throws(FinanceAccessError) {
        guard availability.isDataAvailable(type) else {
            logger.error(
                "\(operation) called for \(type.rawValue), which this deployment does not provide",
                metadata: ["dataType": .string(type.rawValue)])
            throw .dataTypeUnavailable(type)
        }
    }

    /// Throws ``FinanceError/dataRestricted(_:)`` when `restrictedSince` (as
    /// ``AccessRepository/restriction(of:)`` reads it) is set.
    public func checkNotRestricted(_ type: DataType, restrictedSince: Date?) throws(FinanceError) {
        if restrictedSince != nil { throw .dataRestricted(type) }
    }

    /// The client's access to financial data, which must be authorized.
    public func requireAuthorized(_ client: ClientIdentifier) async throws -> ClientAccess {
        let access = try await repository.access(for: client)
        guard access.status == .authorized else { throw FinanceAccessError.notAuthorized(client, status: access.status) }
        return access
    }

    /// ``checkUsable(_:for:)`` for financial data, answered from a snapshot read once for the
    /// call: nothing is read.
    public func checkUsable(_ snapshot: AccessSnapshot, for operation: String) throws {
        try checkAvailable(.financialData, for: operation)
        try checkNotRestricted(.financialData, restrictedSince: snapshot.restrictedSince)
    }

    /// ``checkUsable(_:for:)`` and ``requireAuthorized(_:)`` for financial data, answered from a
    /// snapshot read once for the call: nothing is read.
    public func requireAuthorized(_ snapshot: AccessSnapshot, for operation: String) throws -> ClientAccess {
        try checkUsable(snapshot, for: operation)
        guard snapshot.access.status == .authorized else {
            throw FinanceAccessError.notAuthorized(snapshot.client, status: snapshot.access.status)
        }
        return snapshot.access
    }

    /// Asks the prompt only while the client is `notDetermined`; afterwards returns the cached
    /// decision without asking.
    public func requestAuthorization(
        for client: ClientIdentifier, choices: [AccountChoice], prompt: any AuthorizationPrompt, at time: Date
    ) async throws -> AuthorizationStatus {
        let current = try await repository.access(for: client)
        guard current.status == .notDetermined else { return current.status }
        let decision = await prompt.requestAuthorization(for: client, accounts: choices)
        // A dismissed prompt decides nothing; another caller may have decided meanwhile.
        if decision == .dismissed { return try await repository.access(for: client).status }
        return try await repository.recordDecision(decision, for: client, at: time).status
    }
}
