import Foundation
import TestArchiveTable
import Testing

/// The architecture's import rules, read from the sources (docs/design.md, "Layout").
@Suite("Layering: C and the database stay in their wrappers")
struct LayeringTests {
    /// Every Swift file under Sources/ with the modules it imports.
    static func imports() throws -> [(path: String, modules: Set<String>)] {
        let sources = TestArchiveTable.packageRoot.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        var result: [(String, Set<String>)] = []
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            let modules = text.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { return nil }
                // `import X`, `@testable import X`, `public import X`; not `import struct X.Y`.
                guard words[..<index].allSatisfy({ $0.hasPrefix("@") || $0 == "public" || $0 == "internal" }) else {
                    return nil
                }
                return String(words[index + 1])
            }
            result.append(("Sources/" + relative, Set(modules)))
        }
        return result
    }

    @Test("only Sources/OrderPackage/Wrappers/ imports libzip, zlib and OpenSSL")
    func cWrappers() throws {
        let files = try Self.imports()
        #expect(files.count > 50)
        let cModules: Set<String> = ["CZip", "CZlib", "COpenSSL", "COpenSSLShims"]
        let offenders = files.filter { !$0.modules.isDisjoint(with: cModules) }
            .map(\.path).filter { !$0.hasPrefix("Sources/OrderPackage/Wrappers/") }
        #expect(offenders == [])
        #expect(files.contains { $0.path.hasPrefix("Sources/OrderPackage/Wrappers/") && $0.modules.contains("CZip") })
    }

    @Test("only Sources/WalletSQLite/ imports GRDB")
    func database() throws {
        let offenders = try Self.imports().filter { $0.modules.contains("GRDB") }
            .map(\.path).filter { !$0.hasPrefix("Sources/WalletSQLite/") }
        #expect(offenders == [])
    }
}
