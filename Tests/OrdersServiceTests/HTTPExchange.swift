import Foundation

/// One request on a ``RawConnection`` that stays open (keep-alive), and its whole response: for
/// the tests that send thousands of requests, or from many client addresses, without a client
/// library in the way.
extension RawConnection {
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends `method path` with `headers` (and `Host`, unless `host` is nil) and `body`, and
    /// reads the response; nil when the server closed the connection or did not answer in time.
    func exchange(
        _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = [], host: String? = "127.0.0.1"
    ) -> Answer? {
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if let host { head += "Host: \(host)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        guard send(Array(head.utf8) + body), let response = response() else { return nil }
        return Answer(status: response.status, headers: response.headers, body: response.body)
    }

    /// `GET /metrics`: the value of the sample whose line starts with `prefix` (name and labels),
    /// 0 when there is none.
    func metric(_ prefix: String) -> Double {
        guard let answer = exchange("GET", "/metrics") else { return -1 }
        let line = answer.text.split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } ?? 0
    }
}
