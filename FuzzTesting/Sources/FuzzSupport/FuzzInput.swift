import Foundation
import OrderPackage

/// The bytes libFuzzer hands a target, and what the targets share.
public enum FuzzInput {
    /// The input as `Data` (copied: the parsers under test keep slices of what they are given).
    public static func data(_ start: UnsafeRawPointer?, _ count: Int) -> Data {
        guard let start, count > 0 else { return Data() }
        return Data(bytes: start, count: count)
    }

    /// A file of the repository (the test PKI, a sample), found from this source file's place
    /// so a target runs from any directory of the checkout.
    public static func repositoryFile(_ path: String) -> Data {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        guard let data = try? Data(contentsOf: root.appendingPathComponent(path)) else {
            fatalError("FuzzTesting: cannot read \(path) beside FuzzTesting/ (run from a checkout)")
        }
        return data
    }

    /// One entry of `TestArchives/valid/basic.order`, copied out of the archive (which is freed): a
    /// byte array, because LeakSanitizer does not see through the tagged pointers of a `Data` that
    /// a global holds (FuzzTesting/README.md, "Leaks").
    public static func sampleEntry(_ name: String) -> [UInt8] {
        guard let sample = try? ZipArchive(reading: repositoryFile("TestArchives/valid/basic.order")),
            let entry = sample[name]
        else { fatalError("FuzzTesting: basic.order has no \(name)") }
        return Array(entry)
    }

    /// Fails the run (libFuzzer records the input) when a property of the parser does not hold.
    public static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() {
            fatalError("property violated: \(message())")
        }
    }
}

/// libFuzzer's entry point for a program with its own `main` (SwiftPM names an executable's entry
/// point after its module, so libFuzzer's `main` is not the one linked).
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the process's arguments (`-max_total_time=60 CORPUS`, …) on `test`.
public enum FuzzDriver {
    public static func run(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, test))
    }
}
