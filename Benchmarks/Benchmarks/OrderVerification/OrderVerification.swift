import Benchmark
import Foundation
import OrderPackage

/// Verification of a typical order: TestArchives/valid/basic.order, order.json plus two
/// ~48 KB images (about 100 KB), signed by the test PKI. One iteration = one archive, all checks.
let benchmarks: @Sendable () -> Void = {
    let testArchives = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestArchives")
    guard let archive = try? Data(contentsOf: testArchives.appendingPathComponent("valid/basic.order")),
        let root = try? Data(contentsOf: testArchives.appendingPathComponent("pki/root.pem")),
        let trustStore = try? TrustStore.apple.adding(roots: [root])
    else {
        fatalError("TestArchives/valid/basic.order and pki/root.pem are needed; run from a checkout")
    }
    let verifier = OrderVerifier(trustStore: trustStore)
    guard verifier.verify(archive).isValid else { fatalError("the benchmark archive must verify") }

    let configuration = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        scalingFactor: .one,
        maxDuration: .seconds(5),
        maxIterations: 2_000
    )

    Benchmark("Verify a typical order (≈100 KB, all checks)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(verifier.verify(archive))
        }
    }

    // The stages alone, to show where the time goes.
    Benchmark("Stage: read the zip (libzip, inflate, limits)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try ZipArchive(reading: archive))
        }
    }

    guard let contents = try? ZipArchive(reading: archive), let manifest = contents["manifest.json"],
        let orderJSON = contents["order.json"]
    else { fatalError("unreadable benchmark archive") }

    Benchmark("Stage: manifest (parse, SHA-256 of every entry)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try Manifest(parsing: manifest).problems(in: contents))
        }
    }

    Benchmark("Stage: order.json (parse and validate)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(OrderValidator().validate(orderJSON))
        }
    }
}
