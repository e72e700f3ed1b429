import Foundation

/// What an image file's first bytes declare: its format and size, read without decoding a pixel
/// (docs/order-format.md, "Images"). Wallet shows PNG and JPEG images; a file named as an image
/// must be one of them, as its extension says, at most ``maximumSide`` pixels a side.
struct ImageHeader: Equatable {
    enum Format: String {
        case png = "PNG"
        case jpeg = "JPEG"

        /// The format a name's extension promises (`.png`, `.jpg`, `.jpeg`, any case), nil for
        /// another extension.
        init?(fileName: String) {
            // The extension's bytes, compared without making a lowered copy of the name.
            let bytes = fileName.utf8
            guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return nil }
            let suffix = bytes[bytes.index(after: dot)...]
            func named(_ text: StaticString) -> Bool {
                suffix.count == text.utf8CodeUnitCount
                    && zip(suffix, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)).allSatisfy {
                        $0 | 0x20 == $1
                    }
            }
            if named("png") {
                self = .png
            } else if named("jpg") || named("jpeg") {
                self = .jpeg
            } else {
                return nil
            }
        }
    }

    /// The longest side an order's image may have: far more than Wallet shows (a logo is drawn
    /// at some 100 points), little enough that decoding one never takes a device's memory.
    static let maximumSide = 4096

    var format: Format
    var width: Int
    var height: Int

    /// The header of `data`, or why it has none Wallet reads.
    static func read(_ data: Data) -> Result<ImageHeader, ImageHeaderError> {
        // The bytes in place, never copied: an image is read for a few dozen of them.
        data.withUnsafeBytes { read(UnsafeRawBufferPointer(rebasing: $0.prefix(64 * 1024))) }
    }

    private static func read(_ bytes: UnsafeRawBufferPointer) -> Result<ImageHeader, ImageHeaderError> {
        let header: ImageHeader
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // The first chunk is IHDR, 13 bytes: width and height first, big-endian.
            guard bytes.count >= 24, bytes[8..<16].elementsEqual([0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]) else {
                return .failure(.unreadable("a PNG signature without its IHDR chunk"))
            }
            header = ImageHeader(format: .png, width: bigEndian(bytes, 16, 4), height: bigEndian(bytes, 20, 4))
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            guard let frame = jpegFrame(bytes) else {
                return .failure(.unreadable("a JPEG start without a frame header (SOF) in its first 64 KiB"))
            }
            header = frame
        } else {
            return .failure(.notAnImage(firstBytes: bytes.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")))
        }
        guard header.width > 0, header.height > 0 else {
            return .failure(.unreadable("its header declares \(header.width)×\(header.height) pixels"))
        }
        guard header.width <= maximumSide, header.height <= maximumSide else {
            return .failure(.tooLarge(width: header.width, height: header.height))
        }
        return .success(header)
    }

    /// The first start-of-frame segment's size (SOF0–SOF15 but DHT, JPG and DAC, which share
    /// the range), walking the segments from after SOI.
    private static func jpegFrame(_ bytes: UnsafeRawBufferPointer) -> ImageHeader? {
        var index = 2
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            var marker = bytes[index + 1]
            index += 2
            // Fill bytes before a marker.
            while marker == 0xFF, index < bytes.count {
                marker = bytes[index]
                index += 1
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // no length
            guard marker != 0xD9, marker != 0xDA, index + 1 < bytes.count else { return nil }  // EOI, SOS before a frame
            let length = bigEndian(bytes, index, 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard index + 6 < bytes.count else { return nil }
                return ImageHeader(format: .jpeg, width: bigEndian(bytes, index + 5, 2), height: bigEndian(bytes, index + 3, 2))
            }
            index += length
        }
        return nil
    }

    private static func bigEndian(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int {
        bytes[start..<(start + count)].reduce(0) { $0 << 8 | Int($1) }
    }
}

/// Why a file named as an image is not one Wallet shows.
enum ImageHeaderError: Error, Equatable {
    case notAnImage(firstBytes: String)
    case unreadable(String)
    case tooLarge(width: Int, height: Int)

    var reason: String {
        switch self {
        case .notAnImage(let firstBytes):
            firstBytes.isEmpty ? "the file is empty" : "its bytes are neither PNG nor JPEG (they begin \(firstBytes))"
        case .unreadable(let reason):
            reason
        case .tooLarge(let width, let height):
            "it is \(width)×\(height) pixels; at most \(ImageHeader.maximumSide) a side"
        }
    }
}
