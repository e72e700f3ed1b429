import ArgumentParser
import Foundation
import OrderPackage

/// `--trust-root` (repeatable) and `ORDERS_TRUST_ROOTS` (colon-separated paths): extra roots
/// trusted in addition to Apple's.
struct TrustOptions: ParsableArguments {
    @Option(
        name: .customLong("trust-root"),
        help: ArgumentHelp("An extra trusted root certificate (PEM or DER); repeatable.", valueName: "file"))
    var trustRoots: [String] = []

    /// Every extra root path: the options first, then the environment's.
    var rootPaths: [String] {
        let environment = ProcessInfo.processInfo.environment["ORDERS_TRUST_ROOTS"] ?? ""
        return trustRoots + environment.split(separator: ":").map(String.init).filter { !$0.isEmpty }
    }

    func trustStore() throws -> TrustStore {
        let paths = rootPaths
        guard !paths.isEmpty else { return .apple }
        var roots: [Data] = []
        for path in paths {
            do {
                roots.append(try Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw CommandFailure("cannot read trust root \(path): \(Self.reason(error))")
            }
        }
        do {
            return try TrustStore.apple.adding(roots: roots)
        } catch {
            throw CommandFailure("cannot use trust roots \(paths.joined(separator: ", ")): \(error)")
        }
    }

    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError {
            return "no such file"
        }
        return nsError.localizedDescription
    }
}
