import FuzzSupport
import OrderPackage

// manifest.json: JSON object of path → SHA-256 hex. Properties: nothing crashes; every entry read
// has a 64-digit lower-case digest; problems name a bounded message (never the input whole).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzManifest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    do throws(ManifestError) {
        let manifest = try Manifest(parsing: FuzzInput.data(UnsafeRawPointer(start), count))
        for entry in manifest.entries {
            FuzzInput.check(
                entry.sha256.utf8.count == 64 && entry.sha256 == entry.sha256.lowercased(), "digest \(entry.sha256)")
        }
    } catch {
        FuzzInput.check(error.message.utf8.count <= 4096, "a \(error.message.utf8.count)-byte message")
    }
    return 0
}

FuzzDriver.run(fuzzManifest)
