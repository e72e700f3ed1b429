import FinanceData
import Foundation
import HTTPTypes
import Hummingbird
import OrdersWebProtocol
import ServiceCore
import WalletConsent
import WalletOrders
import WalletWire

/// Background delivery over HTTP (`/finance/v1/background-delivery`, with the client's access
/// token): FinanceKit's `enableBackgroundDelivery(for:frequency:)` as `PUT`, its
/// `disableBackgroundDelivery(for:)` and `disableAllBackgroundDelivery()` as `DELETE` with and
/// without `types`, and the endpoints' state as `GET`. docs/background-delivery.md.
struct BackgroundDeliveryRoutes: Sendable {
    typealias Context = ClientContext

    let wallet: WalletStore

    struct Endpoints: Encodable {
        var endpoints: [WireDeliveryEndpoint]
    }

    struct Enabled: Encodable {
        var endpoint: WireDeliveryEndpoint
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let store = store(context)
        return Response.json(status: .ok, body: try await endpoints(of: store), headers: FinanceAPIRoutes.noStore)
    }

    /// 201 with the endpoint and its secret when this created it; 200 when it existed.
    @Sendable func enable(_ request: Request, context: Context) async throws -> Response {
        let store = store(context)
        let registration = try DeliveryRegistrationBody.parse(
            try await LimitedBody.collect(request, limit: DeliveryRegistrationBody.maximumSize))
        var types: Set<BackgroundDataType> = []
        for (index, name) in registration.types.enumerated() {
            guard let type = BackgroundDataType(rawValue: name) else {
                throw ServiceRequestError.malformedBody(
                    reason: "\(MessageText.quote(name)) is not a data type; use "
                        + BackgroundDataType.allCases.map(\.rawValue).joined(separator: ", "),
                    path: "types[\(index)]")
            }
            types.insert(type)
        }
        guard let frequency = UpdateFrequency(rawValue: registration.frequency) else {
            throw ServiceRequestError.malformedBody(
                reason: "\(MessageText.quote(registration.frequency)) is not a frequency; use hourly, daily or weekly",
                path: "frequency")
        }
        let enabled = try await store.enableBackgroundDelivery(for: types, frequency: frequency, url: registration.url)
        let wire = WireDeliveryEndpoint(enabled.endpoint, secret: enabled.secret)
        return Response.json(
            status: enabled.secret == nil ? .ok : .created, body: Enabled(endpoint: wire), headers: FinanceAPIRoutes.noStore)
    }

    /// `?types=a,b` disables those types; without `types`, everything. Answers what is left.
    @Sendable func disable(_ request: Request, context: Context) async throws -> Response {
        let store = store(context)
        let query = FinanceQueryParameters(try PageForm.query(request))
        // `types=` with nothing in it is refused, not read as "everything": disabling all is
        // asked for by leaving `types` out.
        if let list = try query.single("types") {
            guard !list.isEmpty else { throw BackgroundDeliveryError.noDataTypes }
            var types: Set<BackgroundDataType> = []
            for name in list.split(separator: ",", omittingEmptySubsequences: false) {
                guard let type = BackgroundDataType(rawValue: String(name)) else {
                    throw ServiceRequestError.invalidParameter(
                        name: "types",
                        reason: "a comma-separated list of " + BackgroundDataType.allCases.map(\.rawValue).joined(separator: ", ")
                    )
                }
                types.insert(type)
            }
            try await store.disableBackgroundDelivery(for: types)
        } else {
            try await store.disableAllBackgroundDelivery()
        }
        return Response.json(status: .ok, body: try await endpoints(of: store), headers: FinanceAPIRoutes.noStore)
    }

    /// The client's FinanceStore (the authenticator ran).
    private func store(_ context: Context) -> FinanceStore {
        wallet.financeStore(for: context.caller.snapshot)
    }

    private func endpoints(of store: FinanceStore) async throws -> Endpoints {
        Endpoints(endpoints: try await store.backgroundDeliveryEndpoints().map { WireDeliveryEndpoint($0) })
    }
}
