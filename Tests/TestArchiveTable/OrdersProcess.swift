import Foundation
import Synchronization

/// Runs the built `orders` binary (or another program) as a child process.
public struct OrdersProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    public static let binary = OrdersBinary.url

    public static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        stdinText: String? = nil,
        in directory: URL = TestArchiveTable.directory,
        standardOutput: FileHandle? = nil,
        timeout: TimeInterval = 300
    ) async throws -> Result {
        try await run(
            executable: binary, arguments, environment: environment, stdinText: stdinText, in: directory,
            standardOutput: standardOutput, timeout: timeout)
    }

    /// ``runBlocking(executable:_:environment:stdinText:in:standardOutput:timeout:)`` on a thread
    /// of its own (``BlockingWork``), so that waiting for the child holds none of the threads the
    /// other tests' tasks run on.
    public static func run(
        executable: URL, _ arguments: [String], environment: [String: String] = [:], stdinText: String? = nil, in directory: URL,
        standardOutput: FileHandle? = nil, timeout: TimeInterval = 300
    ) async throws -> Result {
        try await BlockingWork.run {
            try runBlocking(
                executable: executable, arguments, environment: environment, stdinText: stdinText, in: directory,
                standardOutput: standardOutput, timeout: timeout)
        }
    }

    /// ``run(_:environment:stdinText:in:standardOutput:timeout:)`` on the calling thread, for code
    /// already on a thread of its own.
    public static func runBlocking(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL = TestArchiveTable.directory,
        timeout: TimeInterval = 300
    ) throws -> Result {
        try runBlocking(executable: binary, arguments, environment: environment, in: directory, timeout: timeout)
    }

    /// Runs `executable`; a child still running after `timeout` seconds is killed (its status is
    /// then SIGKILL's), so a test of a hang fails instead of hanging. `standardOutput` replaces
    /// the captured pipe (stdout is then "").
    ///
    /// Standard output and standard error are drained at the same time, and `stdinText` is
    /// written meanwhile, so a child that fills one pipe while the test waits on another never
    /// blocks. Every pipe is closed before returning: hundreds of tests run in one process.
    public static func runBlocking(
        executable: URL, _ arguments: [String], environment: [String: String] = [:], stdinText: String? = nil, in directory: URL,
        standardOutput: FileHandle? = nil, timeout: TimeInterval = 300
    ) throws -> Result {
        _ = Self.ignoreBrokenPipes
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = OrdersBinary.environment(adding: environment)
        let stdout = standardOutput == nil ? Pipe() : nil
        let stderr = Pipe()
        let stdin = stdinText == nil ? nil : Pipe()
        process.standardOutput = standardOutput ?? stdout
        process.standardError = stderr
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
        // The child holds its ends now; the parent's copies would keep the pipes open.
        try? stdout?.fileHandleForWriting.close()
        try? stderr.fileHandleForWriting.close()
        try? stdin?.fileHandleForReading.close()

        // Capture the process id only: a work item keeps its closure until its deadline, even
        // when cancelled, and a captured Process would keep its pipes open that long.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)

        let group = DispatchGroup()
        let errors = CapturedData()
        if let stdin, let stdinText {
            DispatchQueue.global().async(group: group) {
                // A child that exits without reading gets EPIPE here, not a crash (SIGPIPE is
                // ignored in the test process, see ``ignoreBrokenPipes``).
                try? stdin.fileHandleForWriting.write(contentsOf: Data(stdinText.utf8))
                try? stdin.fileHandleForWriting.close()
            }
        }
        DispatchQueue.global().async(group: group) {
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            errors.data.withLock { $0 = data }
        }
        let out = stdout?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        group.wait()
        process.waitUntilExit()
        watchdog.cancel()
        try? stdout?.fileHandleForReading.close()
        try? stderr.fileHandleForReading.close()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errors.data.withLock { $0 }, as: UTF8.self))
    }

    /// Writing to a child that has exited must fail with EPIPE instead of killing the tests.
    static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    private final class CapturedData: Sendable {
        let data = Mutex(Data())
    }
}
