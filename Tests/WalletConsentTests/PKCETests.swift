import Testing
import WalletConsent

@Suite("PKCE: S256 only, RFC 7636's vector, verifiers of the right form")
struct PKCETests {
    /// RFC 7636 appendix B.
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    @Test("the challenge of RFC 7636's verifier is RFC 7636's")
    func vector() {
        #expect(PKCE.challenge(for: Self.verifier) == Self.challenge)
        #expect(PKCE.verify(Self.verifier, against: Self.challenge))
        #expect(PKCE.isValidChallenge(Self.challenge))
    }

    @Test("another verifier, a malformed one, or the challenge itself (plain) does not verify")
    func refusals() {
        #expect(!PKCE.verify(Self.verifier + "A", against: Self.challenge))
        #expect(!PKCE.verify(Self.challenge, against: Self.challenge))
        #expect(!PKCE.verify("short", against: PKCE.challenge(for: "short")))
        let tooLong = String(repeating: "a", count: 129)
        #expect(!PKCE.verify(tooLong, against: PKCE.challenge(for: tooLong)))
        let spaced = String(repeating: "a", count: 42) + " "
        #expect(!PKCE.verify(spaced, against: PKCE.challenge(for: spaced)))
        #expect(!PKCE.isValidChallenge(Self.challenge + "A"))
        #expect(!PKCE.isValidChallenge(String(Self.challenge.dropLast()) + "="))
    }
}

@Suite("Secret tokens: a prefix per kind, 256 random bits, kept as a digest")
struct SecretTokenTests {
    @Test("each kind has its form; two tokens differ; the digest is SHA-256 in hex")
    func forms() {
        for kind in SecretToken.Kind.allCases {
            let token = SecretToken.generate(kind)
            #expect(SecretToken.hasForm(token.value, of: kind))
            #expect(token.value.hasPrefix(kind.rawValue + "_") && token.value.utf8.count == 47)
            #expect(token != SecretToken.generate(kind))
            #expect(token.digest.utf8.count == 64 && token.digest == SecretToken.digest(of: token.value))
            #expect(!token.description.contains(token.value.dropFirst(4)))
        }
        let access = SecretToken.generate(.accessToken).value
        #expect(!SecretToken.hasForm(access, of: .refreshToken))
        #expect(!SecretToken.hasForm(access + "A", of: .accessToken))
        #expect(!SecretToken.hasForm(String(access.dropLast()) + "+", of: .accessToken))
    }
}
