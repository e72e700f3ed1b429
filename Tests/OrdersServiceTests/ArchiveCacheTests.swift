import NIOCore
import Testing

@testable import OrdersService

@Suite("The archive cache")
struct ArchiveCacheTests {
    @Test("keeps archives by digest and lets the oldest go past its byte limit")
    func evictsTheOldest() {
        let cache = ArchiveCache(byteLimit: 10)
        cache.insert(ByteBuffer(bytes: [1, 2, 3, 4]), digest: "a")
        cache.insert(ByteBuffer(bytes: [5, 6, 7, 8]), digest: "b")
        #expect(cache["a"] == ByteBuffer(bytes: [1, 2, 3, 4]) && cache["b"] != nil)
        cache.insert(ByteBuffer(bytes: [9, 9, 9, 9]), digest: "c")
        #expect(cache["a"] == nil, "12 bytes > 10: the oldest left")
        #expect(cache["b"] != nil && cache["c"] != nil)
        cache.insert(ByteBuffer(repeating: 0, count: 11), digest: "huge")
        #expect(cache["huge"] == nil && cache["b"] != nil, "an archive over the limit is not kept and evicts nothing")
        cache.insert(ByteBuffer(bytes: [0]), digest: "b")
        #expect(cache["b"] == ByteBuffer(bytes: [5, 6, 7, 8]), "a digest names one content: the first stays")
    }
}
