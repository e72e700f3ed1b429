import ArgumentParser
import Foundation

/// The file operands of `orders verify` and `orders add`, set apart before swift-argument-parser
/// reads the command line, and file lists read with `--files-from`.
///
/// Why: swift-argument-parser removes each argument it consumed from its input in hash order,
/// shifting the rest every time, which is quadratic in the number of arguments (8,000 files took
/// 4 s to parse, 32,000 took 29 s). Handing it only the options keeps parsing linear. It needs
/// to know which options of these commands take a value; a CLI test holds this table against
/// the commands' `--help`.
enum FileOperands {
    /// Per command, the options that take a value (as a separate argument or after `=`).
    static let valueOptions: [String: Set<String>] = [
        "verify": ["--trust-root", "--at", "--files-from"],
        "add": ["--trust-root", "--client", "--store", "--database", "--files-from"],
    ]

    /// `arguments` (without the program name) split into what the parser should read and the
    /// file operands, or nil for commands that take no file operands.
    static func split(_ arguments: [String]) -> (parser: [String], files: [String])? {
        guard let command = arguments.first, let takesValue = valueOptions[command] else { return nil }
        var parser = [command]
        var files: [String] = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                files += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                files.append(argument)
                continue
            }
            parser.append(argument)
            if takesValue.contains(argument), index < arguments.count {
                parser.append(arguments[index])
                index += 1
            }
        }
        return (parser, files)
    }

    /// The command with the file operands handed to it.
    static func inject(_ files: [String], into command: any ParsableCommand) -> any ParsableCommand {
        switch command {
        case var verify as VerifyCommand:
            verify.files += files
            return verify
        case var add as AddCommand:
            add.files += files
            return add
        default:
            return command
        }
    }

    /// Every file named by the operands, then by the `--files-from` list (one path per line;
    /// empty lines ignored; `-` reads standard input).
    static func files(_ operands: [String], from list: String?) throws -> [String] {
        guard let list else { return operands }
        let limit = 256 << 20
        let data: Data
        do {
            if list == "-" {
                guard let read = try FileDescriptor.read(STDIN_FILENO, limit: limit) else {
                    throw CommandFailure("it is larger than \(limit) bytes")
                }
                data = read
            } else {
                data = try FileInput.read(list, upTo: limit)
            }
        } catch {
            throw CommandFailure("cannot read the file list \(list): \(TrustOptions.reason(error))")
        }
        let paths = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        return operands + paths
    }
}
