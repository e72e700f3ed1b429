import Foundation
import OrderPackage
import Testing

@testable import OrderRendering

/// Vectors from two independent encoders (PyPI), for the bytes `(i × 31 + 7) mod 256`,
/// i = 0..<n. segno 1.6 at each version's byte capacity at level M: every version's tables, block
/// layout, alignment and version information, placement and masks. python-qrcode 8 for
/// messages shorter than their version holds: the padding (segno writes a 0x00 codeword before
/// the pad codewords 0xEC 0x11, which ISO/IEC 18004 §7.4.10 does not; readers ignore both).
@Suite("QRCode: byte mode at level M matches an independent encoder in every version")
struct QRCodeTests {
    /// (version, bytes, forced mask, SHA-256 of the rows as "0"/"1" lines).
    static let vectors: [(Int, Int, Int, String)] = [
        (1, 14, 1, "9b760a3d5c5e3192ea3ea0cd211055db11224c883cdfea165ccbdcdc7c61343c"),
        (2, 26, 2, "a3887ad5f9b540763ae5421b2e945913414afd164ae108edaccb44f23143e6d6"),
        (3, 42, 3, "2a4d123fb127b39a3a22ab854944c0ea2a0dde8e0d5cc20098caf2168d89ff6d"),
        (4, 62, 4, "629a53597d1adbe3cb3f0ec5506175305a060afd9506ca376743e5c636a1d144"),
        (5, 84, 5, "4a5f55fcf051ab8ea894ce1d103216ba37dec124047b9c4ac8322bb7906e6c2d"),
        (6, 106, 6, "9600cd44a3c0b0486e1e6e2a1d07138408d4c2b2b22a5e7df77064f2d6f1b892"),
        (7, 122, 7, "50296694fdb6c16589e92ff3fed310ebc8db7e86ef2840b2431af9120c8f2e8d"),
        (8, 152, 0, "07ade414e8bb0628859dcf919296d7a70bf28c89ce97976e85bcd4356098a25a"),
        (9, 180, 1, "aef4f18735d1e4d330e75847d5601664bdeaf52ceab818dc5462fecddacd1b3c"),
        (10, 213, 2, "c51578ec121f7f2741d664d7b54a0843130a8989bf3db1689a1c1e88649db4b4"),
        (11, 251, 3, "b70d01c1b0c22ae27c2392d0bf73385552b5210a78b458aef7b7dcb29f6404e9"),
        (12, 287, 4, "2bd054847481d4a4993cdf27a17c41680a3103f2a2037b2a729dd81031c53409"),
        (13, 331, 5, "89bd8dad26e882080223f6e31dcecbd0ca1402bdbaa61e2c1c686bb6813d3818"),
        (14, 362, 6, "05026b12369411e72d1e7a19430473893f4df8117a30d9e760bf91962a19d71a"),
        (15, 412, 7, "76a1b625df682ecbe24c273c8c07654bf953bd574374d49dff362d28f0bb5041"),
        (16, 450, 0, "ea76b2ab91e4ce352027ea39a2738316336491896b8cd41ad6afb9449b4a8a44"),
        (17, 504, 1, "d0aadee401a51741ae1178bc8afec02ee01b1d96be5ccb959a6688f6eff0e4d7"),
        (18, 560, 2, "db20284c869cab5ce561add0bc111ec7183759f288e960c587d29513034b5873"),
        (19, 624, 3, "b6887ceba61bf2b590dd4c33a3b22fa052288a4016292070a7accc6e4031b2ed"),
        (20, 666, 4, "d0cd24f072d18a5d91955f3ed41f293e657b7d99b17564fb0e3a4fb313448b3e"),
        (21, 711, 5, "c66a22f7968f315aaafd231651f2461204f68aef9d0c36bcd43eb408869a3e25"),
        (22, 779, 6, "b95f2e5f95394e7270db5944af604adbd9f00acae25104da50139c5d8fb77442"),
        (23, 857, 7, "4116484e2fc0139ec1b8e6100b68fabf0d217b24947280976d153c36e0cb8045"),
        (24, 911, 0, "3933222160da106054022cf48421bc4b626efa3b3d5ebb1a0be25956d3fa931f"),
        (25, 997, 1, "aa4515ef0266d70fc10d32f82cfe87d93a38e7f8f506b95f19c4b6865260cb36"),
        (26, 1059, 2, "960ae69dfed6fa687682730712094fdb5751875a67be6a9a5cb4d2c9d70d9aa1"),
        (27, 1125, 3, "724c1d25fa7eebe8c3e9df3baf6a0685343fdd30051c6244a6c9af966229cb65"),
        (28, 1190, 4, "c877754243dce58216f3e3c9da410440c1782a74f2cb07088b3185d87947d267"),
        (29, 1264, 5, "8568fa0389f5ad56927c36b74c38469dac4e73014176b96c64bfaf7435b117a7"),
        (30, 1370, 6, "b65b537f771b52f824a99b77008ca2d310ae6ee23ff4e2aee3e6d5582e36d923"),
        (31, 1452, 7, "37b9c4f2019185bd2d5b796416ebab16e928d6039dec5b959be04f3c3726f5e7"),
        (32, 1538, 0, "94ccce7d15170f583a983abae9d053e0331848d8ae7855d2bf68043c85178d6e"),
        (33, 1628, 1, "0d3a5b4649471f3042a94471d3537ff8810f1b94fc5a8802921ae1f8c55ca054"),
        (34, 1722, 2, "a8a7197c52e19c239443ad4e2023f35797d1ce0e46ae78503ce0cfdfa2b45443"),
        (35, 1809, 3, "7154d820acc8fa3cc4c860a7cbe751cb9fe9c39ae7f33f578ac4eebf5b76c429"),
        (36, 1911, 4, "cabc2eb783d0fce0b880bc55e9dd393ae41672394be5f460c612064ae50a2427"),
        (37, 1989, 5, "53b4f636f58de8d461816bcf67afeadf0cacb48cf69f4479bd9db90beda8abc9"),
        (38, 2099, 6, "373253bd4bc931cbfa5f7518383420b88666c6e5b0df448134d835fd757f330d"),
        (39, 2213, 7, "2ebaf2aa1cf9eb8cd6913751ed3a05622327f2fc425636c75b987286f17da890"),
        (40, 2331, 0, "a1baf64d5b8ac42cf2db91a1d5cf6363a14e53eab09a7ebba74949f8bd178be9"),
    ]

    /// Padded messages (python-qrcode): (version, bytes, forced mask, SHA-256 as above).
    static let padded: [(Int, Int, Int, String)] = [
        (1, 1, 1, "53a3ca8ff0b837eb2065feec9060492a9ed6464bc48647a1ac20e82d89c73379"),
        (1, 7, 7, "57cb3341814d5b57c53a4386fc560b260aee57c2df908cc56856c96507282abe"),
        (1, 13, 5, "d987297791995931aa307fdd8bb43e3fc699945e838bea5ac9f0bdce2f734512"),
        (2, 20, 4, "0ae3b769bd4fee006da9d2f00176035eba79a3c074bf634bc629e04ccce08f3a"),
        (6, 100, 4, "fa3839e4d389e420037ea5508cde096cdbf9cf34c99eaf62d746e2b1ba24f206"),
        (17, 500, 4, "7e83e9e972aa3624d510c9b6d9cb4e1c98b84d8873654761258b53364b55ae30"),
        (26, 1000, 0, "9cb4f23ab39650403b7bd5e5db9c971c7280e1a642d5da4f49ed20965680fdd3"),
        (38, 2000, 0, "25dc8dc472300bd7c89daa9bff7f2d67e5039f30281d6722d4af366ddeffdd02"),
    ]

    /// "ORDER-FULL-1" (the full test order's barcode) with mask 2, module by module (python-qrcode).
    static let orderFull1 = [
        "#######..##...#######",
        "#.....#..#..#.#.....#",
        "#.###.#.#.#...#.###.#",
        "#.###.#.##.#..#.###.#",
        "#.###.#.#####.#.###.#",
        "#.....#.###.#.#.....#",
        "#######.#.#.#.#######",
        "........#..##........",
        "#.#####..##.#.#####..",
        ".#..##.##...##....##.",
        "##.#..#...##.#.....#.",
        ".#...#.####..#.######",
        "#.######.#.#......###",
        "........#...####.##..",
        "#######...#.#.....##.",
        "#.....#.######...##..",
        "#.###.#.###.#...#.###",
        "#.###.#.#..#.######..",
        "#.###.#.##..#..#.##..",
        "#.....#....##..####..",
        "#######.#.##..##.###.",
    ]

    static func bytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(($0 * 31 + 7) % 256) } }

    static func rows(_ code: QRCode) -> String {
        code.modules.map { row in String(row.map { $0 ? "1" : "0" }) }.joined(separator: "\n")
    }

    @Test(
        "every version at its capacity, and padded messages, with a forced mask: the same modules",
        arguments: vectors + padded)
    func version(_ vector: (Int, Int, Int, String)) throws {
        let (version, count, mask, digest) = vector
        let code = try #require(QRCode(bytes: Self.bytes(count), mask: mask))
        #expect(code.version == version)
        #expect(code.size == version * 4 + 17)
        #expect(SHA256Digest.hex(of: Data(Self.rows(code).utf8)) == digest)
    }

    /// Encoders score masks differently at the edges (runs at the symbol's border, overlapping
    /// finder-like patterns): the choice is checked against this encoder's own scores, and the
    /// symbol must be the one that mask gives.
    @Test("the automatic mask has the lowest penalty, and its symbol is that mask's", arguments: vectors.prefix(12))
    func automaticMask(_ vector: (Int, Int, Int, String)) throws {
        let code = try #require(QRCode(bytes: Self.bytes(vector.1)))
        let forced = (0..<8).map { QRCode(bytes: Self.bytes(vector.1), mask: $0) }
        #expect(forced[code.mask] == code)
        let scores = (0..<8).map { mask in forced[mask].map { QRSymbolBuilder.penalty(of: $0.modules) } ?? .max }
        #expect(scores[code.mask] == scores.min())
    }

    @Test("one byte over a version's capacity takes the next version; over version 40's, none")
    func capacity() throws {
        for (version, count, _, _) in Self.vectors where version < 40 {
            #expect(QRCode(bytes: Self.bytes(count + 1), mask: 0)?.version == version + 1)
        }
        #expect(QRCode(bytes: Self.bytes(2_331), mask: 0)?.version == 40)
        #expect(QRCode(bytes: Self.bytes(2_332), mask: 0) == nil)
    }

    @Test("a whole symbol, module by module")
    func wholeSymbol() throws {
        let code = try #require(QRCode(bytes: Array("ORDER-FULL-1".utf8), mask: 2))
        #expect(code.modules.map { row in String(row.map { $0 ? "#" : "." }) } == Self.orderFull1)
    }
}
