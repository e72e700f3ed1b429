import Foundation
import TestArchiveTable

/// Runs the built `orders` binary as a child process.
struct OrdersProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// `orders` sits next to the test bundle in SwiftPM's products folder.
    static let binary: URL = {
        if let override = ProcessInfo.processInfo.environment["ORDERS_BINARY"] { return URL(fileURLWithPath: override) }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("orders")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return executable.deletingLastPathComponent().appendingPathComponent("orders")
    }()

    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        stdinText: String? = nil,
        in directory: URL = TestArchiveTable.directory,
        standardOutput: FileHandle? = nil,
        timeout: TimeInterval = 300
    ) throws -> Result {
        try run(
            executable: binary, arguments, environment: environment, stdinText: stdinText, in: directory,
            standardOutput: standardOutput, timeout: timeout)
    }

    /// Runs `executable`; a child still running after `timeout` seconds is killed (its status is
    /// then SIGKILL's), so a test of a hang fails instead of hanging. `standardOutput` replaces
    /// the captured pipe (stdout is then "").
    static func run(
        executable: URL, _ arguments: [String], environment: [String: String] = [:], stdinText: String? = nil, in directory: URL,
        standardOutput: FileHandle? = nil, timeout: TimeInterval = 300
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "ORDERS_TRUST_ROOTS")
        merged.merge(environment) { $1 }
        process.environment = merged
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = standardOutput ?? stdout
        process.standardError = stderr
        let input = Pipe()
        process.standardInput = stdinText == nil ? FileHandle.nullDevice : input
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        if let stdinText {
            input.fileHandleForWriting.write(Data(stdinText.utf8))
            try input.fileHandleForWriting.close()
        }
        // Read before waiting so a full pipe never blocks the child.
        if standardOutput != nil { try? stdout.fileHandleForWriting.close() }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }
}
