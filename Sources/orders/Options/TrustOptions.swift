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

    /// Apple's roots and those of ``rootPaths`` that can be read and parsed (`orders doctor`,
    /// which reports the others and goes on checking with these).
    func usableTrustStore() -> TrustStore {
        var store = TrustStore.apple
        for path in rootPaths {
            if let root = try? FileInput.read(path), let extended = try? store.adding(roots: [root]) { store = extended }
        }
        return store
    }

    func trustStore() throws -> TrustStore {
        let paths = rootPaths
        guard !paths.isEmpty else { return .apple }
        var roots: [Data] = []
        for path in paths {
            do {
                roots.append(try FileInput.read(path))
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

    /// The operating system's wording for a file error ("No such file or directory"), else
    /// Foundation's description.
    static func reason(_ error: any Error) -> String {
        if let error = error as? POSIXFailure { return error.description }
        if let error = error as? CommandFailure { return error.message }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(nsError.code)))
        }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        switch nsError.code {
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return String(cString: strerror(ENOENT))
        case NSFileReadNoPermissionError: return String(cString: strerror(EACCES))
        default: return nsError.localizedDescription
        }
    }
}
