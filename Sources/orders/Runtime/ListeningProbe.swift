import Foundation

/// Whether `orders serve` could listen on an address, asked before it opens (and perhaps
/// creates) the store: a port that is taken stops it with nothing made. The real listener binds
/// again a moment later; what changes in between is reported by it, as before.
enum ListeningProbe {
    /// Binds a TCP socket to `host`:`port` (with `SO_REUSEADDR`, as the server's listener does)
    /// and closes it. Port 0 always succeeds.
    ///
    /// - Throws: ``CommandFailure`` saying `cannot listen on HOST:PORT: REASON`, the words the
    ///   server itself uses.
    static func check(host: String, port: Int) throws(CommandFailure) {
        guard port != 0 else { return }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            throw CommandFailure("cannot listen on \(host):\(port): no such host or address")
        }
        defer { freeaddrinfo(found) }
        let descriptor = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard descriptor >= 0 else { return }  // No socket to try with: the listener will say why.
        defer { close(descriptor) }
        var reuse: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        if bind(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 {
            throw CommandFailure("cannot listen on \(host):\(port): \(String(cString: strerror(errno)))")
        }
    }
}
