import Foundation
import FuzzSupport

@testable import OrderPackage

// The detached CMS signature and the certificates inside it (SignedDataLayout's BER walk, then
// OpenSSL's CMS and X.509 parsers), over basic.order's manifest with the test PKI trusted; and the
// same bytes as a certificate file (PEM or DER) as `--trust-root` reads it. Properties: nothing
// crashes or leaks; whatever verifies, verifies as basic.order's own signer; the trust store's
// remembered chains (VerifiedChainCache) never change a verdict: each input is verified again by
// a store that has forgotten them, with the same outcome.
// Arrays, not `Data`: LeakSanitizer does not see through the tagged pointers of `Data` held by
// globals (FuzzSignatureDifferential's per-input leak check reported such a global as leaked).
private let manifestBytes = FuzzInput.sampleEntry(Manifest.fileName)
private let signatureBytes = FuzzInput.sampleEntry(Manifest.signatureFileName)
private let verifier: SignatureVerifier = {
    let root = FuzzInput.repositoryFile("TestArchives/pki/root.pem")
    guard let store = try? TrustStore.apple.adding(roots: [root]) else { fatalError("the test root does not load") }
    return SignatureVerifier(trustStore: store)
}()
private let forgetful: SignatureVerifier = {
    let root = FuzzInput.repositoryFile("TestArchives/pki/root.pem")
    guard let store = try? TrustStore.apple.adding(roots: [root]) else { fatalError("the test root does not load") }
    return SignatureVerifier(trustStore: store)
}()
private let now = Date(timeIntervalSince1970: 1_790_000_000)
private let sampleSigner: SignerFacts = {
    let outcome = verifier.verify(
        signature: Data(signatureBytes), manifest: Data(manifestBytes), orderTypeIdentifier: nil, time: .signingTime,
        now: now)
    guard let signer = outcome.signer, outcome.errors.isEmpty else { fatalError("basic.order's signature does not verify") }
    return signer
}()

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzSignature(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput.data(UnsafeRawPointer(start), count)
    let manifest = Data(manifestBytes)
    let outcome = verifier.verify(
        signature: input, manifest: manifest, orderTypeIdentifier: nil, time: .signingTime, now: now)
    // Bytes other than the sample's may verify — the signer identifier lies outside what is
    // signed, and names match in canonical form (Regressions/FuzzSignature/
    // issuer-string-type-retagged) — but only ever as the same signer over the same manifest.
    if outcome.errors.isEmpty {
        FuzzInput.check(outcome.signer == sampleSigner, "verified as another signer: \(String(describing: outcome.signer))")
    }
    forgetful.trustStore.verifiedChains.removeAll()
    let fresh = forgetful.verify(
        signature: input, manifest: manifest, orderTypeIdentifier: nil, time: .signingTime, now: now)
    FuzzInput.check(
        fresh.errors == outcome.errors && fresh.signer == outcome.signer,
        "a remembered chain changed the verdict: \(outcome.errors) / \(fresh.errors)")
    _ = try? X509Certificate.certificates(pemOrDER: input)
    return 0
}

FuzzDriver.run(fuzzSignature)
