import FuzzSupport
import OrderPackage

// The zip reader (libzip behind ZipArchive's own layout checks and inflate limits). Properties:
// nothing crashes; an archive that is read has unique names, each within the entry limit, and
// every name it lists can be looked up.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzZipArchive(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let limits = ArchiveLimits()
    guard let archive = try? ZipArchive(reading: FuzzInput.data(UnsafeRawPointer(start), count), limits: limits) else { return 0 }
    FuzzInput.check(Set(archive.names).count == archive.names.count, "duplicate names read: \(archive.names)")
    FuzzInput.check(archive.entries.count <= limits.maximumEntryCount, "more entries than the limit")
    var total = 0
    for entry in archive.entries {
        FuzzInput.check(archive[entry.name] == entry.contents, "lookup of \(entry.name) differs")
        FuzzInput.check(entry.contents.count <= limits.maximumEntrySize, "\(entry.name) over the entry limit")
        total += entry.contents.count
    }
    FuzzInput.check(total <= limits.maximumTotalUncompressedSize, "inflated total \(total) over the limit")
    return 0
}

FuzzDriver.run(fuzzZipArchive)
