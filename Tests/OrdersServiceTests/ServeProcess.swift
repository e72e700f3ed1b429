import Foundation
import TestArchiveTable

/// `orders serve --port 0` as a child process: started, its port read from the first line of
/// standard output, stopped with SIGTERM. Output goes to files in a temporary folder, so a chatty
/// server never blocks on a full pipe; a server still running when this is released is killed.
final class ServeProcess: @unchecked Sendable {
    let process: Process
    let port: Int
    let folder: URL
    /// `listening on http://HOST:PORT`.
    let firstLine: String
    /// When standard error is a pipe nobody reads (``start(store:arguments:environment:standardErrorUnread:)``).
    private let unreadPipe: Pipe?
    private var exitStatus: Int32?

    var standardError: String {
        (try? String(contentsOf: folder.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
    }

    private init(process: Process, port: Int, folder: URL, firstLine: String, unreadPipe: Pipe?) {
        self.process = process
        self.port = port
        self.folder = folder
        self.firstLine = firstLine
        self.unreadPipe = unreadPipe
    }

    /// Starts `orders serve` on the SQLite store, trusting the test root. With
    /// `standardErrorUnread`, standard error is a pipe that nobody drains (a log reader that hung).
    static func start(
        store: String, arguments: [String] = [], environment: [String: String] = [:], standardErrorUnread: Bool = false
    ) async throws -> ServeProcess {
        try await start(
            location: ["--store", store], arguments: arguments, environment: environment,
            standardErrorUnread: standardErrorUnread)
    }

    /// Starts `orders serve` on a PostgreSQL database (`--database URL`), trusting the test root.
    static func start(
        database: String, arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> ServeProcess {
        try await start(location: ["--database", database], arguments: arguments, environment: environment)
    }

    /// Starts `orders serve` on `location` (`--store PATH` or `--database URL`).
    static func start(location: [String], arguments: [String] = []) async throws -> ServeProcess {
        try await start(location: location, arguments: arguments, environment: [:])
    }

    /// `orders serve` run as the user `uid` (and its group `gid`, no other), as a service user
    /// runs it: through util-linux's `setpriv`, which takes root.
    static func start(
        store: String, asUser uid: Int, group gid: Int, arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> ServeProcess {
        try await start(
            location: ["--store", store], arguments: arguments, environment: environment,
            asUser: ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"])
    }

    /// Waiting for the port happens on a thread of its own (``BlockingWork``).
    private static func start(
        location: [String], arguments: [String], environment: [String: String], standardErrorUnread: Bool = false,
        asUser: [String]? = nil
    ) async throws -> ServeProcess {
        try await BlockingWork.run {
            try startBlocking(
                location: location, arguments: arguments, environment: environment, standardErrorUnread: standardErrorUnread,
                asUser: asUser)
        }
    }

    private static func startBlocking(
        location: [String], arguments: [String], environment: [String: String], standardErrorUnread: Bool,
        asUser: [String]?
    ) throws -> ServeProcess {
        let folder = try TemporaryDirectory.make("serve-process")
        let stdoutURL = folder.appendingPathComponent("stdout")
        let stderrURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let process = Process()
        process.executableURL = asUser == nil ? OrdersBinary.url : URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments =
            (asUser.map { $0 + [OrdersBinary.url.path] } ?? [])
            + [
                "serve", "--port", "0", "--trust-root",
                TestArchiveTable.directory.appendingPathComponent("pki/root.pem").path,
            ]
            + location + arguments
        process.environment = OrdersBinary.environment(adding: environment)
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        let unread = standardErrorUnread ? Pipe() : nil
        if let unread {
            process.standardError = unread
        } else {
            process.standardError = try FileHandle(forWritingTo: stderrURL)
        }
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let text = (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n", omittingEmptySubsequences: false).first, text.contains("\n") {
                guard line.hasPrefix("listening on http"), let port = line.split(separator: ":").last.flatMap({ Int($0) })
                else {
                    process.terminate()
                    throw ServeProcessError(message: "unexpected first line: \(line)")
                }
                return ServeProcess(
                    process: process, port: port, folder: folder, firstLine: String(line), unreadPipe: unread)
            }
            if !process.isRunning {
                let errors = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
                throw ServeProcessError(message: "orders serve exited \(process.terminationStatus): \(errors)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.terminate()
        throw ServeProcessError(message: "orders serve printed no port within 120 s")
    }

    /// `orders serve ARGUMENTS` expected to fail before it serves: its exit status and standard
    /// error.
    static func failing(_ arguments: [String], in folder: URL? = nil) async throws -> (status: Int32, standardError: String) {
        try await BlockingWork.run { try failingBlocking(arguments, in: folder) }
    }

    private static func failingBlocking(_ arguments: [String], in folder: URL?) throws -> (status: Int32, standardError: String) {
        let process = Process()
        process.executableURL = OrdersBinary.url
        process.currentDirectoryURL = folder
        process.arguments = ["serve"] + arguments
        process.environment = OrdersBinary.environment()
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }

    /// SIGTERM, then the exit status (SIGKILL after `patience` seconds).
    @discardableResult
    func stop(signal: Int32 = SIGTERM, patience: TimeInterval = 30) -> Int32 {
        if let exitStatus { return exitStatus }
        kill(process.processIdentifier, signal)
        Poll.untilBlocking(timeout: .seconds(patience)) { !process.isRunning }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        exitStatus = status
        return status
    }

    /// ``stop(signal:patience:)`` from a task, waiting on a thread of its own.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, patience: TimeInterval = 30) async -> Int32 {
        await BlockingWork.run { self.stop(signal: signal, patience: patience) }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        withExtendedLifetime(unreadPipe) {}
    }
}

struct ServeProcessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
