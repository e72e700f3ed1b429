import ServiceCore

/// What RFC 8414 says an authorization server publishes at
/// `/.well-known/oauth-authorization-server`: its issuer identifier, its endpoints and what they
/// take. OAuth libraries (authlib's `server_metadata_url`, among others) read it instead of being
/// configured endpoint by endpoint.
struct AuthorizationServerMetadata: Encodable {
    var issuer: String
    var authorizationEndpoint: String
    var tokenEndpoint: String
    var revocationEndpoint: String
    var responseTypesSupported = ["code"]
    var responseModesSupported = ["query"]
    var grantTypesSupported = ["authorization_code", "refresh_token"]
    /// PKCE is required, with S256 only (RFC 7636; RFC 9700 §2.1.1).
    var codeChallengeMethodsSupported = ["S256"]
    var tokenEndpointAuthMethodsSupported = ["client_secret_basic", "client_secret_post", "none"]
    var revocationEndpointAuthMethodsSupported = ["client_secret_basic", "client_secret_post", "none"]
    /// Every authorization response carries `iss` (RFC 9207).
    var authorizationResponseIssParameterSupported = true

    init(issuer: String) {
        self.issuer = issuer
        authorizationEndpoint = issuer + "/finance/authorize"
        tokenEndpoint = issuer + "/finance/token"
        revocationEndpoint = issuer + "/finance/revoke"
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case responseTypesSupported = "response_types_supported"
        case responseModesSupported = "response_modes_supported"
        case grantTypesSupported = "grant_types_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
    }
}
