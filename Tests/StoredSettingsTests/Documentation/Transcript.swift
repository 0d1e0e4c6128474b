import Foundation
import StoredSettings
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A terminal transcript in the documentation that the tests run: a code block right after the
/// line `<!-- transcript: daybook -->` (an HTML comment, which neither GitHub nor DocC shows).
///
/// The rules, for whoever writes a block:
/// - A line starting with `$ ` is a command; the lines after it, up to the next command or the
///   end of the block, are what it prints (standard output and standard error, as one stream,
///   in the order written).
/// - A block is a script a person can paste into an empty home folder: its commands run, in
///   order, in one `bash` (without start-up files) whose working folder is a fresh, empty
///   `HOME`, with the built `daybook` first on `PATH`, so a command creates the folders it
///   writes into (`mkdir -p .config/daybook`) as a person has to. No `DAYBOOK_*` or `XDG_*`
///   variable of the test's environment reaches the script, so the settings file is
///   `~/.config/daybook/settings.json`.
/// - `echo $?` prints the exit status of the command before it, as in any shell.
/// - Output must match exactly, except that every ISO 8601 time in UTC
///   (`2026-11-30T02:38:15Z`, with or without a fraction of a second) stands for any other:
///   `daybook write` stores the time it runs.
struct TranscriptBlock: Sendable, CustomTestStringConvertible {
    /// One `$ ` line and the lines it prints.
    struct Step: Sendable {
        var command: String
        var expected: [String]
    }

    /// The file, relative to the package's folder.
    var file: String
    /// The line of the opening fence, counting from 1.
    var line: Int
    var steps: [Step]

    var testDescription: String { "\(file):\(line)" }

    /// The line that marks a block to run.
    static let marker = "<!-- transcript: daybook -->"

    /// The package's folder: four levels above this file.
    static let packageFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The files searched: the README and every article of every module's DocC catalog.
    static func documentationFiles() throws -> [String] {
        let sources = packageFolder.appendingPathComponent("Sources")
        var files = ["README.md"]
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = "Sources/\(module)/Documentation.docc"
            let folder = packageFolder.appendingPathComponent(catalog).path
            guard let articles = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            files += articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        }
        return files
    }

    /// Every marked block of every documentation file.
    static func all() throws -> [TranscriptBlock] {
        try documentationFiles().flatMap { file in
            try blocks(in: String(contentsOf: packageFolder.appendingPathComponent(file), encoding: .utf8), file: file)
        }
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// The marked blocks of one file's text.
    ///
    /// - Throws: ``Malformed`` for a marker that is not followed by a code block, or a block
    ///   whose first line is not a command.
    static func blocks(in text: String, file: String) throws -> [TranscriptBlock] {
        let lines = text.components(separatedBy: "\n")
        var result: [TranscriptBlock] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index].trimmingCharacters(in: .whitespaces) == marker else { continue }
            let fence = index + 1
            guard fence < lines.count, lines[fence].hasPrefix("```") else {
                throw Malformed(description: "\(file):\(index + 1): \(marker) is not followed by a code block")
            }
            var steps: [Step] = []
            index = fence + 1
            while index < lines.count, !lines[index].hasPrefix("```") {
                if lines[index].hasPrefix("$ ") {
                    steps.append(Step(command: String(lines[index].dropFirst(2)), expected: []))
                } else if steps.isEmpty {
                    throw Malformed(description: "\(file):\(index + 1): a transcript starts with a '$ ' line")
                } else {
                    steps[steps.count - 1].expected.append(lines[index])
                }
                index += 1
            }
            guard index < lines.count else {
                throw Malformed(description: "\(file):\(fence + 1): the code block is not closed")
            }
            result.append(TranscriptBlock(file: file, line: fence + 1, steps: steps))
        }
        return result
    }

    /// What the script prints after each step's output: a record separator (U+001E) and a
    /// line break, which no transcript shows.
    static let stepEnd = "\u{1E}\n"

    /// The `bash` script of `steps`: each command with its standard error joined to its
    /// output, then ``stepEnd``, leaving `$?` as the command left it.
    static func script(of steps: [Step]) -> String {
        var script = "cd || exit 70\n"
        for step in steps {
            script += "{\n\(step.command)\n} 2>&1; transcript_status=$?; printf '\\036\\n'; (exit $transcript_status)\n"
        }
        return script
    }

    /// `text` with every ISO 8601 UTC time replaced by `<time>`.
    static func normalized(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z"#, with: "<time>",
            options: .regularExpression)
    }

    /// Expected and actual lines as a diff: `-` expected only, `+` printed only, ` ` both.
    static func diff(expected: [String], actual: [String]) -> String {
        let changes = actual.difference(from: expected)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in changes {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var lines: [String] = []
        var old = 0
        var new = 0
        while old < expected.count || new < actual.count {
            if old < expected.count, removed.contains(old) {
                lines.append("-" + expected[old])
                old += 1
            } else if new < actual.count, inserted.contains(new) {
                lines.append("+" + actual[new])
                new += 1
            } else {
                lines.append(" " + (old < expected.count ? expected[old] : actual[new]))
                old += 1
                new += 1
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// Runs `executable` with `arguments` and exactly `environment`, with standard output and
/// standard error on one pipe, to its end (`waitpid`), on a Dispatch thread.
func runCombiningOutput(_ executable: String, _ arguments: [String], environment: [String: String]) async throws -> (
    status: Int32, output: String
) {
    let pipe = try closeOnExecPipe()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    close(pipe[1])
    guard code == 0 else {
        close(pipe[0])
        throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL)
    }
    let (readEnd, child) = (pipe[0], pid)
    return await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                if count > 0 {
                    bytes.append(contentsOf: buffer[0..<count])
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(readEnd)
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0, errno == EINTR {}
            let signal = status & 0x7F
            continuation.resume(
                returning: (signal == 0 ? (status >> 8) & 0xFF : 128 + signal, String(decoding: bytes, as: UTF8.self)))
        }
    }
}
