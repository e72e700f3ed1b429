import FuzzSupport

@testable import OrderPackage

// The zip reader (libzip behind ZipArchive's own layout checks and inflate limits). Properties:
// nothing crashes; an archive that is read has unique names — also after case folding and NFC,
// and none holds a C1 control or bidirectional formatting character — each within the entry limit, and
// every name it lists can be looked up; and whatever is read, a reader as strict as Python's
// zipfile (PythonZipReader) reads too, the same entries in the same order from the same bytes —
// name, method, where the data starts, sizes and CRC-32 — so no other common reader sees another
// archive (issue 23).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzZipArchive(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let limits = ArchiveLimits()
    let data = FuzzInput.data(UnsafeRawPointer(start), count)
    guard let archive = try? ZipArchive(reading: data, limits: limits) else { return 0 }
    FuzzInput.check(Set(archive.names).count == archive.names.count, "duplicate names read: \(archive.names)")
    // Issue 56: no two names one file system takes for one, none that reads as another.
    FuzzInput.check(
        Set(archive.names.map(ArchiveEntryName.foldedKey)).count == archive.names.count,
        "names equal after case folding read: \(archive.names)")
    FuzzInput.check(
        archive.names.allSatisfy { ArchiveEntryName.misleadingScalarReason($0.utf8) == nil },
        "a name with a control or bidirectional character read")
    FuzzInput.check(archive.entries.count <= limits.maximumEntryCount, "more entries than the limit")
    var total = 0
    for entry in archive.entries {
        FuzzInput.check(archive[entry.name] == entry.contents, "lookup of \(entry.name) differs")
        FuzzInput.check(entry.contents.count <= limits.maximumEntrySize, "\(entry.name) over the entry limit")
        total += entry.contents.count
    }
    FuzzInput.check(total <= limits.maximumTotalUncompressedSize, "inflated total \(total) over the limit")

    let bytes = [UInt8](data)
    let entries: [ZipLayout.Entry]? = bytes.withUnsafeBytes { buffer in
        try? ZipLayout(validating: buffer, maximumEntryCount: limits.maximumEntryCount).entries
    }
    guard let entries else {
        FuzzInput.check(false, "ZipArchive read what the layout check refuses")
        return 0
    }
    let python: PythonZipReader
    do {
        python = try PythonZipReader(bytes)
    } catch {
        FuzzInput.check(false, "accepted here, refused by Python's zipfile: \(error)")
        return 0
    }
    let ours = entries.map { entry in
        PythonZipReader.Entry(
            name: Array(bytes[entry.nameRange]), method: entry.method, dataOffset: entry.dataRange.lowerBound,
            compressedSize: UInt64(entry.compressedSize), uncompressedSize: UInt64(entry.uncompressedSize),
            crc32: entry.crc32)
    }
    FuzzInput.check(python.entries == ours, "Python's zipfile reads other entries: \(python.entries) against \(ours)")
    return 0
}

FuzzDriver.run(fuzzZipArchive)
