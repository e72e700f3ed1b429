import Foundation

/// Resident memory of a process from `/proc/PID/status`, in KiB.
enum ProcessMemory {
    /// `VmHWM`: the peak resident set size since the process started.
    static func peak(of pid: Int32) -> Int? { field("VmHWM", of: pid) }
    /// `VmRSS`: the resident set size now.
    static func resident(of pid: Int32) -> Int? { field("VmRSS", of: pid) }

    private static func field(_ name: String, of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
        return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
