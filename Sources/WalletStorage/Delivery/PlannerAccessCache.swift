import Synchronization
import WalletCore

/// The clients' access planning passes decide with, kept between passes: a pass needs every
/// client with an endpoint, and access changes far less often than the change log grows.
///
/// Each pass reads the access version (``SQLAccessRepository/version(on:)``) in its own unit of
/// work; the cache answers only for the version it was read at and reads again when the version
/// moved — on this instance or any other sharing the database. It holds the clients passes asked
/// for since the version last moved: those with an endpoint, a number the endpoint limit bounds.
final class PlannerAccessCache: Sendable {
    private struct Held {
        var version: Int64
        var accesses: [ClientIdentifier: ClientAccess]
    }

    private let held = Mutex<Held?>(nil)

    /// Each client's access in `clients` (and no other's), as of the current access version,
    /// reading only what the cache does not hold for that version.
    func accesses(
        for clients: Set<ClientIdentifier>, on connection: any SQLConnection
    ) async throws -> [ClientIdentifier: ClientAccess] {
        // The version first: access read after it is at least that recent.
        let version = try await SQLAccessRepository.version(on: connection)
        var known = held.withLock { held in held?.version == version ? held?.accesses ?? [:] : [:] }
        let missing = clients.filter { known[$0] == nil }
        if !missing.isEmpty {
            known.merge(try await SQLAccessRepository.accesses(for: missing, on: connection)) { _, read in read }
            held.withLock { $0 = Held(version: version, accesses: known) }
        }
        return known.filter { clients.contains($0.key) }
    }
}
