// The baseline of the `serve` benchmark: a bare Hummingbird 2 application that answers the same
// two requests with the same bytes as `orders serve` — no store, no authentication, no metrics,
// no request ids. `orders serve` is measured as a fraction of it.
//
//   BareHandler ARCHIVE_FILE ANSWER_JSON_FILE [HEALTH_JSON_FILE]
//   (prints `listening on http://127.0.0.1:PORT`; `/health` answers HEALTH_JSON_FILE's bytes)
import Foundation
import Hummingbird
import Logging

let arguments = CommandLine.arguments
guard (3...4).contains(arguments.count),
    let archive = FileManager.default.contents(atPath: arguments[1]),
    let answer = FileManager.default.contents(atPath: arguments[2])
else {
    FileHandle.standardError.write(
        Data("usage: BareHandler ARCHIVE_FILE ANSWER_JSON_FILE [HEALTH_JSON_FILE]\n".utf8))
    exit(2)
}
let health = arguments.count > 3 ? FileManager.default.contents(atPath: arguments[3]) ?? Data() : Data()

// Built once: the baseline is the fastest way to answer with these bytes.
let archiveBuffer = ByteBuffer(bytes: archive)
let answerBuffer = ByteBuffer(bytes: answer)
let healthBuffer = ByteBuffer(bytes: health)
let router = Router()
router.get("v1/orders/{orderTypeIdentifier}/{orderIdentifier}") { _, _ in
    Response(
        status: .ok, headers: [.contentType: "application/vnd.apple.finance.order"],
        body: ResponseBody(byteBuffer: archiveBuffer))
}
router.get("api/v1/orders/{orderTypeIdentifier}/{orderIdentifier}") { _, _ in
    Response(
        status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
        body: ResponseBody(byteBuffer: answerBuffer))
}
router.get("health") { _, _ in
    Response(
        status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
        body: ResponseBody(byteBuffer: healthBuffer))
}
var logger = Logger(label: "bare")
logger.logLevel = .error
let app = Application(
    router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
    onServerRunning: { channel in
        // Unbuffered, as `orders serve` writes it: the script waits for this line.
        FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(channel.localAddress?.port ?? 0)\n".utf8))
    }, logger: logger)
try await app.runService()
