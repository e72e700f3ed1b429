import Foundation
import TestArchiveTable
import Testing

/// The files the store is made of are private whatever the umask (issue 52, item 5): the store,
/// its `-wal`, `-shm` and lock file `0600` in a `0700` folder it creates — `0640`/`0750` with
/// `ORDERS_STORE_MODE=0640` — and a key, passphrase or PIN file readable by others is named in a
/// warning.
@Suite("Store and secret file modes")
struct StoreFileModeTests {
    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    /// Runs `orders ARGUMENTS` under `umask 000` through the shell, as a service started without
    /// one would; returns the process, its output in `folder`'s `serve.out`.
    static func underZeroUmask(_ arguments: [String], environment: [String: String] = [:], in folder: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"umask 000 && exec "$0" "$@""#, OrdersBinary.url.path] + arguments
        process.environment = OrdersBinary.environment(adding: environment)
        let output = folder.appendingPathComponent("serve.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test(
        "under umask 000, orders serve creates its folder 0700 and the store, -wal, -shm and lock 0600; ORDERS_STORE_MODE=0640 lets the group read",
        arguments: [(nil, 0o600, 0o700), ("0640", 0o640, 0o750)] as [(String?, Int, Int)])
    func storeFiles(_ setting: String?, _ fileMode: Int, _ folderMode: Int) async throws {
        let folder = try TemporaryDirectory.make("store-modes")
        let store = folder.appendingPathComponent("var/orders/orders.sqlite").path
        let server = try Self.underZeroUmask(
            ["serve", "--store", store, "--port", "0"], environment: setting.map { ["ORDERS_STORE_MODE": $0] } ?? [:],
            in: folder)
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let files = ["", "-wal", "-shm", ".lock"].map { store + $0 }
        let listening = await Poll.until(timeout: .seconds(60)) {
            let text = (try? String(contentsOf: folder.appendingPathComponent("serve.out"), encoding: .utf8)) ?? ""
            return text.hasPrefix("listening on") && files.allSatisfy { FileManager.default.fileExists(atPath: $0) }
        }
        #expect(listening, "orders serve listens with every file of its store in place")
        for file in files {
            #expect(Self.mode(file) == fileMode, "\(file): \(String(Self.mode(file) ?? 0, radix: 8))")
        }
        #expect(Self.mode((store as NSString).deletingLastPathComponent) == folderMode)
    }

    @Test("ORDERS_STORE_MODE other than 0600 or 0640: exit 2, nothing created")
    func badSetting() async throws {
        let workspace = try StoreWorkspace()
        let result = try await workspace.run(
            ["keys", "create", "--order-type", "order.com.example.shop"],
            environment: ["ORDERS_STORE_MODE": "0666"])
        #expect(result.status == 2 && result.stderr.contains("ORDERS_STORE_MODE must be 0600 or 0640"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.store))
    }

    @Test(
        "signing add warns, exit 0, when the key or PIN file is readable by others, naming it and its mode; private files, no warning"
    )
    func secretFiles() async throws {
        let workspace = try StoreWorkspace()
        let key = workspace.folder.appendingPathComponent("order.key").path
        try FileManager.default.copyItem(atPath: SigningCommandTests.pki("order.key"), toPath: key)
        let passphrase = workspace.folder.appendingPathComponent("passphrase").path
        try Data("unused\n".utf8).write(to: URL(fileURLWithPath: passphrase))
        let arguments = [
            "--order-type", SigningCommandTests.type, "--certificate", SigningCommandTests.pki("order.pem"), "--key", key,
            "--intermediate", SigningCommandTests.pki("wwdr.pem"),
        ]
        for (path, mode) in [(key, 0o644), (passphrase, 0o604)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        }
        let open = try await SigningCommandTests.add(workspace, arguments + ["--passphrase-file", passphrase])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(
            open.stderr.contains(
                "orders: warning: the key file \(key) is readable by every user of this machine (mode 0644); make it private: chmod 600 \(key)"
            ), "\(open.stderr)")
        #expect(open.stderr.contains("the passphrase file \(passphrase) is readable by every user of this machine (mode 0604)"))

        for path in [key, passphrase] { try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path) }
        let closed = try await SigningCommandTests.add(workspace, arguments + ["--passphrase-file", passphrase, "--activate"])
        #expect(closed.status == 0 && closed.stderr.isEmpty, "\(closed.stderr)")
    }
}
