import Foundation
import TestArchiveTable
import Testing

@testable import OrderPackage

/// Hostile bytes never crash the verifier, and never pass unless the signed content is intact.
@Suite("Robustness against mutated archives")
struct RobustnessTests {
    @Test(
        "flipped bytes and truncations: no crash; a pass implies identical contents",
        arguments: ["valid/stored.order", "valid/localized.order"])
    func mutations(_ file: String) throws {
        let original = try TestArchiveTable.data(file)
        let verifier = OrderVerifier(trustStore: try TestArchiveTable.trustStore())
        let originalEntries = try ZipArchive(reading: original).entries.map { [$0.name: $0.contents] }
        var random = SplitMix64(state: 42)
        var mutants: [Data] = (0..<400).map { _ in
            var copy = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<copy.count, using: &random)
                copy[index] ^= UInt8.random(in: 1...255, using: &random)
            }
            return copy
        }
        mutants += stride(from: 0, to: original.count, by: max(1, original.count / 60)).map { original.prefix($0) }
        var rejected = 0
        for mutant in mutants {
            let report = verifier.verify(mutant)
            if report.isValid {
                // Only bytes no check covers (zip timestamps, attributes) may have changed.
                let entries = try ZipArchive(reading: mutant).entries.map { [$0.name: $0.contents] }
                #expect(entries == originalEntries)
            } else {
                rejected += 1
                #expect(!report.errors.isEmpty)
            }
        }
        #expect(rejected > mutants.count / 2)
    }
}
