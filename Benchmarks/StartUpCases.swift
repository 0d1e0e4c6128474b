import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The settings of the start-up cases: five settings of a small tool.
struct BenchToolSettings: SettingsGroup {
    @Stored("pageSize", default: 10, help: "Entries per page.")
    var pageSize: Int

    @Stored("showDates", default: true, help: "Print dates.")
    var showDates: Bool

    @Stored("editor", default: "vi", help: "The editor.")
    var editor: String

    @Stored("wrapColumn", default: 72, help: "The wrap column.")
    var wrapColumn: Int

    @Stored("retryCount", default: 3, help: "Retries.")
    var retryCount: Int
}

/// A 4-field structure for the structured-write case.
struct BenchWindow: Codable, Equatable, Sendable, StoredValueConvertible {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
}

/// A settings file: the five keys of ``BenchToolSettings``, and `extra` more Ints.
func smallSettingsFile(extra: Int) throws -> Data {
    var object: [String: Any] = [
        "pageSize": 25, "showDates": false, "editor": "nano", "wrapColumn": 80, "retryCount": 5,
    ]
    for index in 0..<extra { object["extra\(index)"] = index }
    return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
}

/// What any reader of options, environment and a JSON file pays at start-up: the environment
/// copied from `environ` into a `[String: String]`, a scan of the arguments for one option,
/// the file read and parsed with `JSONSerialization`, and two values looked up.
@inline(never)
func startUpFloor(arguments: [String], file: URL) throws -> Int {
    var environment: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
        let text = String(cString: pointer)
        if let equals = text.firstIndex(of: "=") {
            environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        entry += 1
    }
    var pageSize: Int?
    if let index = arguments.firstIndex(of: "--page-size"), index + 1 < arguments.count {
        pageSize = Int(arguments[index + 1])
    }
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
    let editor = environment["BENCHTOOL_EDITOR"] ?? object["editor"] as? String ?? "vi"
    return (pageSize ?? object["pageSize"] as? Int ?? 10) &+ editor.utf8.count
}

/// Discards warnings.
struct DiscardingStream: TextOutputStream {
    mutating func write(_ string: String) {}
}

/// A tool's start-up, the opening of a small file, group creation and structured writes,
/// each against the floor a hand-written reader pays.
func runStartUpCases(_ bench: Bench) throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let url = folder.file("settings.json")
    try smallSettingsFile(extra: 15).write(to: url)
    let toolFile = folder.file("tool.json")
    try smallSettingsFile(extra: 0).write(to: toolFile)
    let arguments = ["--page-size", "3", "show"]

    try bench.compare(
        Workload("tool start-up: CommandLineSettings (options, environment, 5-key file) + two reads") { n in
            var sum = 0
            var sink = DiscardingStream()
            for _ in 0..<n {
                let tool = try CommandLineSettings<BenchToolSettings>(
                    toolName: "benchtool", arguments: arguments, file: try FileStore(url: toolFile), messages: &sink)
                sum &+= tool.settings.pageSize &+ tool.settings.editor.utf8.count
            }
            blackHole(sum)
        },
        against: Workload("environ → [String: String], argv scan, JSONSerialization of the file, two lookups") { n in
            var sum = 0
            for _ in 0..<n { sum &+= try startUpFloor(arguments: arguments, file: toolFile) }
            blackHole(sum)
        },
        target: 1.0, slow: true, note: "the floor a swift-configuration reader pays"
    )

    try bench.compare(
        Workload("FileStore open, 20-key file, + one @Stored<Int> read") { n in
            var sum = 0
            for _ in 0..<n {
                let store = try FileStore(url: url)
                sum &+= Stored("pageSize", default: 10, store: store).wrappedValue
            }
            blackHole(sum)
        },
        against: Workload("Data(contentsOf:) + JSONSerialization + one lookup") { n in
            var sum = 0
            for _ in 0..<n {
                let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
                sum &+= object?["pageSize"] as? Int ?? 10
            }
            blackHole(sum)
        },
        target: 1.0, slow: true
    )

    let memory = InMemoryStore(["pageSize": .int(25)])
    try bench.compare(
        Workload("Stored<Int> creation + one read, InMemoryStore") { n in
            var sum = 0
            for _ in 0..<n { sum &+= Stored("pageSize", default: 10, store: memory).wrappedValue }
            blackHole(sum)
        },
        against: Workload("one locked [String: StoredValue] lookup") { n in
            let locked = LockedDictionary(["pageSize": .int(25)])
            var sum = 0
            for _ in 0..<n { sum &+= locked.bool(forKey: "pageSize", default: false) ? 1 : 0 }
            blackHole(sum)
        },
        target: nil, limit: 300, note: "creation ≤ 0.3 µs"
    )

    try bench.compare(
        Workload("SettingsGroup of 5 @Stored creation + one read, InMemoryStore") { n in
            var sum = 0
            for _ in 0..<n { sum &+= BenchToolSettings(store: memory).pageSize }
            blackHole(sum)
        },
        against: Workload("one locked [String: StoredValue] lookup") { n in
            let locked = LockedDictionary(["pageSize": .int(25)])
            var sum = 0
            for _ in 0..<n { sum &+= locked.bool(forKey: "pageSize", default: false) ? 1 : 0 }
            blackHole(sum)
        },
        target: nil, limit: 1_500, note: "a group ≤ 1.5 µs"
    )

    let window = Stored("window", default: BenchWindow(x: 0, y: 0, width: 640, height: 480), store: InMemoryStore())
    let scalarStore = InMemoryStore()
    let scalars = ["x", "y", "width", "height"].map { Stored($0, default: 0, store: scalarStore) }
    try bench.compare(
        Workload("@Stored<4-field structure> write, InMemoryStore") { n in
            for index in 0..<n { window.wrappedValue = BenchWindow(x: index, y: 1, width: 640, height: 480) }
        },
        against: Workload("four @Stored<Int> writes, InMemoryStore") { n in
            for index in 0..<n {
                scalars[0].wrappedValue = index
                scalars[1].wrappedValue = 1
                scalars[2].wrappedValue = 640
                scalars[3].wrappedValue = 480
            }
        },
        target: 1.5
    )
    try runProcessStartUp(bench, folder: folder)
}

/// `daybook config get pageSize` run as a fresh process, against `/bin/true` plus reading
/// the same settings file: what a user waits for when a tool launches.
func runProcessStartUp(_ bench: Bench, folder: ScratchFolder) throws {
    let name = "process start-up: daybook config get pageSize"
    let baseline = "posix_spawn /bin/true + read the settings file"
    let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: "/proc/self/exe")
    let daybook = executable.deletingLastPathComponent().appendingPathComponent("daybook").path
    guard FileManager.default.isExecutableFile(atPath: daybook) else {
        if bench.only.map(name.contains) ?? true {
            bench.unavailable(name, baseline: baseline, target: nil, reason: "build daybook beside the benchmark")
        }
        return
    }
    let home = folder.file("home")
    let settings = home.appendingPathComponent("daybook/settings.json")
    try FileManager.default.createDirectory(
        at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(#"{"pageSize": 25, "showDates": true}"#.utf8).write(to: settings)
    let environment = ["HOME=\(home.path)", "XDG_CONFIG_HOME=\(home.path)", "PATH=/usr/bin:/bin"]
    try bench.compare(
        Workload(name, iterations: 1) { n in
            for _ in 0..<n { try spawnAndWait([daybook, "config", "get", "pageSize"], environment: environment) }
        },
        against: Workload(baseline, iterations: 1) { n in
            for _ in 0..<n {
                try spawnAndWait(["/bin/true"], environment: environment)
                blackHole(try Data(contentsOf: settings))
            }
        },
        target: nil, slow: true, note: "what a launch costs beyond starting any process"
    )
}

/// Runs `command` with standard output and error on /dev/null and waits; throws unless it
/// exits with status 0.
func spawnAndWait(_ command: [String], environment: [String]) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = command.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid = pid_t()
    guard posix_spawn(&pid, command[0], &actions, nil, argv, envp) == 0 else {
        throw BenchmarkError("cannot start \(command[0])")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    guard status == 0 else { throw BenchmarkError("\(command.joined(separator: " ")) exited with \(status)") }
}
