import Foundation
import ServiceCore

/// The HTTP API's OpenAPI 3.1 document — the merchant API and the financial-data API — served at
/// `/api/v1/openapi.json`: `docs/openapi.json` itself, compiled in (`Merchant/openapi.json` is a
/// link to it), so the document a reader, schemathesis and a client generator see is the one
/// served.
enum MerchantOpenAPI {
    static let document = Data(PackageResources.openapi_json)
}
