import Benchmark
import Foundation
import OrderPackage
import OrderRendering

/// Rendering the order page: TestArchives/valid/full.order (every section Wallet shows: two
/// fulfillments, a QR code and a Code 128 barcode, items with images, payment, returns), against
/// verifying the same archive — the work a page is compared with — in the same run.
/// - "render": OrderRenderer alone, from the decoded order and the opened archive;
/// - "from stored bytes": what the customer page does per request: open the zip, validate
///   order.json, render (no signature check: a stored archive was verified when saved).
let benchmarks: @Sendable () -> Void = {
    let testArchives = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestArchives")
    guard let bytes = try? Data(contentsOf: testArchives.appendingPathComponent("valid/full.order")),
        let root = try? Data(contentsOf: testArchives.appendingPathComponent("pki/root.pem")),
        let trustStore = try? TrustStore.apple.adding(roots: [root]),
        let archive = try? ZipArchive(reading: bytes), let orderJSON = archive["order.json"],
        let order = OrderValidator().validate(orderJSON).order
    else {
        fatalError("TestArchives/valid/full.order and pki/root.pem are needed; run from a checkout")
    }
    let verifier = OrderVerifier(trustStore: trustStore)
    guard verifier.verify(bytes).isValid else { fatalError("the benchmark archive must verify") }
    let renderer = OrderRenderer(languages: ["en-US"])

    let configuration = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .mallocCountTotal], scalingFactor: .one, maxDuration: .seconds(5),
        maxIterations: 5_000)

    Benchmark("render the full order", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(renderer.render(order, archive: archive)) }
    }

    Benchmark("render the full order from stored bytes", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let archive = try ZipArchive(reading: bytes)
            guard let json = archive["order.json"], let order = OrderValidator().validate(json).order else { continue }
            blackHole(renderer.render(order, archive: archive))
        }
    }

    Benchmark("verify the same archive (all checks)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(verifier.verify(bytes)) }
    }
}
