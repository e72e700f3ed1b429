import Foundation
import FuzzSupport

@testable import OrderPackage

// SignerSignatureCheck (EVP_PKEY_verify over the DER signed attributes, the messageDigest against
// the manifest) against its reference, OpenSSL's CMS parser and CMS_verify, fed the same signature
// over basic.order's manifest. The first byte chooses the input's form:
//
// - even: the rest is a whole signature (mutated real ones), checked with the certificates it
//   embeds;
// - odd: the rest is the content of the signed attributes, which the harness signs exactly as
//   given with the test PKI's order key (bit 1: the signer named by subject key identifier), so
//   that an encoding CMS_verify would read differently still carries a valid signature.
//
// Property: whatever the check verifies, CMS_verify verifies, as the same certificate with the same
// signingTime; whatever it rejects, CMS_verify does not verify. Undecided inputs go to CMS_verify
// in the verifier, so they carry no claim. The counts go to standard error at each power of two
// from 1,024 inputs and every 2^20 inputs.
// The sample's bytes are kept as arrays: LeakSanitizer does not see through the tagged pointers of
// `Data` held by globals, and reported them as leaked in a per-input leak check.
private let manifestBytes = FuzzInput.sampleEntry(Manifest.fileName)
private let signerCertificate: X509Certificate = {
    guard
        let certificate = try? X509Certificate.certificates(pemOrDER: FuzzInput.repositoryFile("TestArchives/pki/order.pem"))
            .first
    else { fatalError("the test PKI's order certificate does not load") }
    return certificate
}()
private let wwdr: X509Certificate = {
    guard
        let certificate = try? X509Certificate.certificates(pemOrDER: FuzzInput.repositoryFile("TestArchives/pki/wwdr.pem")).first
    else { fatalError("the test PKI's WWDR certificate does not load") }
    return certificate
}()
private let signerKey: PrivateKey = {
    guard let key = try? PrivateKey(pem: FuzzInput.repositoryFile("TestArchives/pki/order.key")) else {
        fatalError("the test PKI's order key does not load")
    }
    return key
}()
nonisolated(unsafe) private var counts = (inputs: 0, verified: 0, rejected: 0, undecided: 0, unparsed: 0)

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzSignatureDifferential(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput.data(UnsafeRawPointer(start), count)
    let manifest = Data(manifestBytes)
    guard let mode = input.first else { return 0 }
    let rest = Array(input.dropFirst())
    let signature: Data?
    var certificates: [X509Certificate]? = [wwdr, signerCertificate]
    if mode & 1 == 0 {
        signature = Data(rest)
        certificates = nil
    } else {
        signature = SignedDataAssembler.signature(
            attributes: rest, certificate: signerCertificate, key: signerKey, byKeyIdentifier: mode & 2 != 0)
    }
    counts.inputs += 1
    defer {
        if counts.inputs & 0xF_FFFF == 0 || (counts.inputs >= 1024 && counts.inputs & (counts.inputs - 1) == 0) {
            FileHandle.standardError.write(Data("differential: \(counts)\n".utf8))
        }
    }
    guard let signature, let layout = try? SignedDataLayout(parsing: signature) else {
        counts.unparsed += 1
        return 0
    }
    guard let candidates = certificates ?? (try? layout.certificates.map { try X509Certificate(der: $0) }) else {
        counts.unparsed += 1
        return 0
    }
    let reference = referenceVerdict(layout, candidates, manifest)
    switch SignerSignatureCheck.check(layout, manifest: manifest, certificates: candidates) {
    case .verified(let signer, let signingTime):
        counts.verified += 1
        FuzzInput.check(reference.signer != nil, "verified here, refused by CMS_verify")
        FuzzInput.check(reference.signer === signer, "verified as another certificate than CMS_verify's")
        FuzzInput.check(
            reference.signingTime == signingTime,
            "signingTime \(String(describing: signingTime)) here, \(String(describing: reference.signingTime)) by OpenSSL")
    case .rejected(let reason):
        counts.rejected += 1
        FuzzInput.check(reference.signer == nil, "rejected here (\(reason)), verified by CMS_verify")
    case .undecided:
        counts.undecided += 1
    }
    return 0
}

/// What SignatureVerifier's reference path concludes: OpenSSL's parse with exactly one signer,
/// CMS_verify's signer, and the signingTime OpenSSL reads.
private func referenceVerdict(
    _ layout: SignedDataLayout, _ certificates: [X509Certificate], _ manifest: Data
) -> (signer: X509Certificate?, signingTime: Date?) {
    guard let cms = try? CMSContentInfo(der: layout.structure), cms.signerCount == 1 else { return (nil, nil) }
    guard case .verified(let signer)? = try? cms.verifyDetached(content: manifest, certificates: certificates) else {
        return (nil, cms.signingTime)
    }
    return (certificates.first { $0.pointer == signer.pointer }, cms.signingTime)
}

// Filled before the first input: a cache filled during one would look like that input's leak.
_ = signerCertificate.signerIdentifiers
_ = wwdr.signerIdentifiers
FuzzDriver.run(fuzzSignatureDifferential)
