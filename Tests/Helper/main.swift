// stored-test-helper: the child process the reliability tests launch.
//
// Each command does one thing to a settings file (or a UserDefaults suite, for comparison) and
// reports on standard output, one `word value` line per fact, so a test can kill it at any
// moment, run several at once, or run it under limits (umask, file size, another user) that
// are global to a process.
//
//   write-loop PATH KEY SIZE          rewrite KEY forever with SIZE-character strings of one
//                                     letter (A, B, C, …); prints `ready` once the store is open
//                                     and `wrote` after each write
//   crash-write PATH KEY SIZE         like write-loop, until it kills itself with SIGKILL at a
//                                     random moment (see CrashWriter.swift); prints `armed`
//   defaults-crash-write SUITE KEY SIZE   the same on UserDefaults, synchronize() after each
//   write-behind-crash PATH SIZE      crash-write on a write-behind store: each round sets `text`
//                                     (SIZE letters) then `count` (the round), and every fourth
//                                     round flushes and prints `flushed <round>`
//   write-keys PATH PREFIX N          set PREFIX-0 … PREFIX-(N-1) to true, one write each
//   increment PATH KEY N              N × update { $0 += 1 } on KEY
//   increment-counting PATH KEY N     the same, counting failed updates instead of stopping:
//                                     prints `failed <count> <first error>` and `done <count>`
//   defaults-write-keys SUITE PREFIX N   the same loads on UserDefaults(suiteName:),
//   defaults-increment SUITE KEY N       with synchronize() after every write
//   defaults-write-loop SUITE KEY SIZE   write-loop on UserDefaults, synchronize() after each
//   default-store-reentrant-report KEY   read KEY from the default store, whose report
//                                     handler reads StoreContext.defaultStore
//   defaults-read SUITE PREFIX KEY    prints `keys <count with PREFIX>` and `value <KEY>`,
//                                     then removes the suite
//   process-variables                 prints `same true` when EnvironmentStore.processVariables()
//                                     equals ProcessInfo's environment, else `same false` and a
//                                     `differs` line per name
//   environment-read PREFIX KEY       EnvironmentStore(prefix:) over this process's environment:
//                                     prints `keys <sorted, comma-separated>`, `value <KEY's value
//                                     or -absent->`, and `reported <error>` for each report
//   read PATH                         open a store (change check on); `ok <key count>` or
//                                     `error <code> <message>`
//   descriptor-limit FREE PATH        the same with only FREE descriptors free, then one write
//   starved-watch PATH                a watching store in a process that runs out of descriptors
//                                     when told on standard input (DescriptorStarvedWatchCommand.swift)
//   rewrite-in-place PATH ROUNDS GAP  an editor saving in place: truncate, pause GAP µs, write
//   truncate-and-stop PATH            truncate in place, print `truncated`, SIGSTOP itself,
//                                     then write the bytes back and print `restored`
//   stop-mid-write PATH KEY SIZE LIMIT   write a SIZE-character value, stopping itself
//                                     (SIGSTOP) when the temporary file reaches LIMIT bytes
//   defaults-store SUITE ACTION KEY …  a step through UserDefaultsStore (DefaultsStoreCommand.swift)
//   measure FOLDER                    time FileStore against its baselines (build with -c release)
//   write-version-1 PATH              settings as version 1 of an app left them (MigrateCommand.swift);
//                                     PATH `defaults:SUITE` for a UserDefaults suite, here and in migrate
//   migrate PATH LOG [KILL_IN]        open them through version 3's migrations; KILL_IN: SIGKILL
//                                     inside that version's migration
//   fuzz-property-lists SEED COUNT    parse COUNT generated property lists (PropertyListFuzz.swift)
//   fuzz-import SEED COUNT            give COUNT generated files to `stored import`'s reader (ImportFuzz.swift)
//   report-into-closed-error          two reports through the default error handler while
//                                     standard error is a closed pipe; prints `reported`
//   command-line-read TOOL            CommandLineSettings over this process's environment
//                                     (CommandLineReadCommand.swift): its values, or its status
//                                     and problems
//   report-after-command-line TOOL [handler]   a report before and after CommandLineSettings
//                                     (ClosedErrorCommand.swift), standard error on output
//   default-store-set KEY INT         through StoreContext.defaultStore: prints `reported <error>`
//                                     for each report, `read <value>`, sets KEY with the setter,
//                                     `read <value>`, then `save ok` or `save error <code> <error>`
//   defaults-open SUITE               UserDefaultsStore(suiteName:) and one read: `read <value>`
//                                     or `error <error>`
//   parse-or-exit TOOL ARGUMENT…      CommandLineSettings.parseOrExit over ARGUMENTs and an
//                                     in-memory file (CommandLineReadCommand.swift); prints
//                                     `ran <arguments left>` when the tool is to go on
//   write-while-printing PATH N       N writes while another thread prints, for a process whose
//                                     standard input and output are closed (StandardStreamCommands.swift)
//   application-write TOOL KEY VALUE  set KEY in FileStore(application: TOOL); `ok <path>` or `error …`
//   set PATH KEY STRING [options]     set KEY to STRING and report; options:
//       --umask OCTAL                 set the process's umask first
//       --file-size-limit BYTES       setrlimit(RLIMIT_FSIZE), SIGXFSZ ignored
//       --drop-privileges            when root, become user and group 65534 first
//     prints `ok` or `error <code> <message>`, then `memory <value of KEY or -absent->`

import Foundation
import StoredSettings
import StoredSettingsCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One line on standard output, written at once (no buffer to lose when killed). Failures are
/// ignored: under a file-size limit, a redirected standard output may refuse the bytes.
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

/// `text` on standard error through the package's writer (never traps on a closed pipe).
func writeToStandardError(_ text: String) {
    var standardError = StandardStream.error
    standardError.write(text)
}

func fail(_ message: String) -> Never {
    writeToStandardError("stored-test-helper: \(message)\n")
    exit(64)
}

func describe(_ value: StoredValue?) -> String {
    switch value {
    case nil: "-absent-"
    case .string(let text)?: text.count > 64 ? "string(\(text.count) characters)" : text
    case .int(let number)?: String(number)
    case let other?: String(describing: other)
    }
}

func openStore(_ path: String) -> FileStore {
    do {
        return try FileStore(url: URL(fileURLWithPath: path), options: FileStore.Options(changeCheckInterval: nil))
    } catch {
        fail("cannot open \(path): \(error)")
    }
}

func number(_ text: String) -> Int {
    guard let value = Int(text) else { fail("not a number: \(text)") }
    return value
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail("no command; see the comment at the top of main.swift") }
arguments.removeFirst()

switch (command, arguments.count) {
case ("write-loop", 3):
    let store = openStore(arguments[0])
    let key = arguments[1]
    let size = number(arguments[2])
    say("ready")
    var letter = UInt8(ascii: "A")
    while true {
        let text = String(repeating: Character(Unicode.Scalar(letter)), count: size)
        do { try store.setValue(.string(text), forKey: key) } catch { fail("write failed: \(error)") }
        say("wrote")
        letter = letter == UInt8(ascii: "Z") ? UInt8(ascii: "A") : letter + 1
    }

case ("crash-write", 3):
    let store = openStore(arguments[0])
    let key = arguments[1]
    let url = URL(fileURLWithPath: arguments[0])
    let temporaryFiles = (url.deletingLastPathComponent().path, ".\(url.lastPathComponent).tmp-")
    crashWrite(size: number(arguments[2]), temporaryFiles: temporaryFiles) {
        try store.setValue(.string($0), forKey: key)
    }

case ("write-behind-crash", 2):
    let url = URL(fileURLWithPath: arguments[0])
    let options = FileStore.Options(changeCheckInterval: nil, writeMode: .writeBehind)
    guard let store = try? FileStore(url: url, options: options) else { fail("cannot open \(url.path)") }
    let temporaryFiles = (url.deletingLastPathComponent().path, ".\(url.lastPathComponent).tmp-")
    var round: Int64 = 0
    crashWrite(size: number(arguments[1]), temporaryFiles: temporaryFiles) { text in
        try store.setValue(.string(text), forKey: "text")
        try store.setValue(.int(round), forKey: "count")
        if round % 4 == 0 {
            try store.flush()
            say("flushed \(round)")
        }
        round += 1
    }

case ("defaults-crash-write", 3):
    guard let defaults = UserDefaults(suiteName: arguments[0]) else { fail("no suite \(arguments[0])") }
    let key = arguments[1]
    crashWrite(size: number(arguments[2])) { text in
        defaults.set(text, forKey: key)
        defaults.synchronize()
    }

case ("write-keys", 3):
    let store = openStore(arguments[0])
    for index in 0..<number(arguments[2]) {
        do { try store.setValue(.bool(true), forKey: "\(arguments[1])-\(index)") } catch {
            fail("write failed: \(error)")
        }
    }
    say("done")

case ("increment", 3):
    let store = openStore(arguments[0])
    for _ in 0..<number(arguments[2]) {
        do {
            try store.update(forKey: arguments[1]) { value in
                if case .int(let count)? = value { value = .int(count + 1) } else { value = .int(1) }
            }
        } catch {
            fail("update failed: \(error)")
        }
    }
    say("done")

case ("increment-counting", 3):
    // Like increment, but a failed update (a clear error) is counted, not fatal: prints
    // `failed <count>` (with the first error) and `done <successful updates>`.
    let store = openStore(arguments[0])
    var done = 0
    var failed = 0
    var firstError: String?
    for _ in 0..<number(arguments[2]) {
        do {
            try store.update(forKey: arguments[1]) { value in
                if case .int(let count)? = value { value = .int(count + 1) } else { value = .int(1) }
            }
            done += 1
        } catch {
            failed += 1
            if firstError == nil { firstError = "\(error)" }
        }
    }
    say("failed \(failed) \(firstError ?? "")")
    say("done \(done)")

case ("defaults-write-keys", 3):
    guard let defaults = UserDefaults(suiteName: arguments[0]) else { fail("no suite \(arguments[0])") }
    for index in 0..<number(arguments[2]) {
        defaults.set(true, forKey: "\(arguments[1])-\(index)")
        defaults.synchronize()
    }
    say("done")

case ("defaults-increment", 3):
    guard let defaults = UserDefaults(suiteName: arguments[0]) else { fail("no suite \(arguments[0])") }
    for _ in 0..<number(arguments[2]) {
        defaults.synchronize()
        defaults.set(defaults.integer(forKey: arguments[1]) + 1, forKey: arguments[1])
        defaults.synchronize()
    }
    say("done")

case ("defaults-write-loop", 3):
    guard let defaults = UserDefaults(suiteName: arguments[0]) else { fail("no suite \(arguments[0])") }
    let size = number(arguments[2])
    say("ready")
    var letter = UInt8(ascii: "A")
    while true {
        defaults.set(String(repeating: Character(Unicode.Scalar(letter)), count: size), forKey: arguments[1])
        defaults.synchronize()
        say("wrote")
        letter = letter == UInt8(ascii: "Z") ? UInt8(ascii: "A") : letter + 1
    }

case ("defaults-read", 3):
    guard let defaults = UserDefaults(suiteName: arguments[0]) else { fail("no suite \(arguments[0])") }
    let all = defaults.persistentDomain(forName: arguments[0]) ?? [:]
    say("keys \(all.keys.filter { $0.hasPrefix(arguments[1]) }.count)")
    say("value \(defaults.integer(forKey: arguments[2]))")
    defaults.removePersistentDomain(forName: arguments[0])

case ("environment-read", 2):
    let store = EnvironmentStore(prefix: arguments[0])
    say("keys \(store.keys().sorted().joined(separator: ","))")
    let value = StorageErrorReporter.withHandler({ error in say("reported \(error)") }) {
        store.value(forKey: arguments[1])
    }
    say("value \(describe(value))")

case ("process-variables", 0):
    let variables = EnvironmentStore.processVariables()
    let foundation = ProcessInfo.processInfo.environment
    say("same \(variables == foundation)")
    for key in Set(variables.keys).union(foundation.keys).sorted() where variables[key] != foundation[key] {
        say(
            "differs \(key.debugDescription) \(String(describing: variables[key])) \(String(describing: foundation[key]))"
        )
    }
    // A prefix's read holds every variable with that prefix, as the whole read gives it.
    for prefix in ["A", "D", "E", "F", "F\u{600}", "G", "J", "K", "KI", "", "\u{FFFD}"] {
        let read = EnvironmentStore.processVariables(withPrefix: prefix)
        if read.filter({ $0.key.hasPrefix(prefix) }) != variables.filter({ $0.key.hasPrefix(prefix) }) {
            say("prefix \(prefix.debugDescription) differs: \(read)")
        }
    }

case ("set", 3...):
    let (path, key, text) = (arguments[0], arguments[1], arguments[2])
    var options = arguments.dropFirst(3).makeIterator()
    while let option = options.next() {
        switch option {
        case "--umask":
            guard let text = options.next(), let mask = mode_t(text, radix: 8) else {
                fail("--umask needs an octal mask")
            }
            umask(mask)
        case "--file-size-limit":
            guard let text = options.next(), let bytes = rlim_t(text) else {
                fail("--file-size-limit needs a byte count")
            }
            signal(SIGXFSZ, SIG_IGN)
            guard ResourceLimit.set(ResourceLimit.fileSize, to: bytes) else { fail("setrlimit failed") }
        case "--drop-privileges":
            if geteuid() == 0 {
                guard setgroups(0, nil) == 0, setgid(65534) == 0, setuid(65534) == 0 else {
                    fail("cannot drop privileges")
                }
            }
        default:
            fail("unknown option \(option)")
        }
    }
    let store = openStore(path)
    do {
        try store.setValue(.string(text), forKey: key)
        say("ok")
    } catch let error as StorageError {
        say("error \(error.code) \(error)")
    } catch {
        say("error other \(error)")
    }
    say("memory \(describe(store.value(forKey: key)))")

case ("default-store-set", 2):
    StorageErrorReporter.setHandler { error in say("reported \(error)") }
    let setting = Stored(arguments[0], default: 0)
    say("read \(setting.wrappedValue)")
    setting.wrappedValue = number(arguments[1])
    say("read \(setting.wrappedValue)")
    do {
        try setting.save(number(arguments[1]))
        say("save ok")
    } catch let error as StorageError {
        say("save error \(error.code) \(error)")
    } catch {
        say("save error other \(error)")
    }
case ("default-store-reentrant-report", 1):
    // The report handler uses the default store while its opening reports: it must not wait
    // for (or, with `os_unfair_lock`, abort on) the lock under which the store is created.
    StorageErrorReporter.setHandler { error in
        say("reported \(error.code)")
        say("handler sees \(StoreContext.defaultStore.location ?? "none")")
    }
    let setting = Stored(arguments[0], default: 0)
    say("read \(setting.wrappedValue)")
case ("read", 1):
    readCommand(path: arguments[0])

case ("descriptor-limit", 2):
    descriptorLimitCommand(free: number(arguments[0]), path: arguments[1])

case ("starved-watch", 1):
    starvedWatchCommand(path: arguments[0])

case ("rewrite-in-place", 3):
    rewriteInPlaceCommand(path: arguments[0], rounds: number(arguments[1]), gap: number(arguments[2]))

case ("truncate-and-stop", 1):
    truncateAndStopCommand(path: arguments[0])

case ("stop-mid-write", 4):
    stopMidWriteCommand(path: arguments[0], key: arguments[1], size: number(arguments[2]), limit: number(arguments[3]))
case ("defaults-store", _):
    runDefaultsStore(arguments)

case ("measure", 1):
    measure(folder: arguments[0])

case ("write-version-1", 1):
    writeVersionOneCommand(path: arguments[0])

case ("migrate", 2...3):
    migrateCommand(path: arguments[0], log: arguments[1], killIn: arguments.count == 3 ? number(arguments[2]) : nil)

case ("fuzz-property-lists", 2):
    guard let seed = UInt64(arguments[0]) else { fail("not a seed: \(arguments[0])") }
    fuzzPropertyListsCommand(seed: seed, count: number(arguments[1]))

case ("fuzz-import", 2):
    guard let seed = UInt64(arguments[0]) else { fail("not a seed: \(arguments[0])") }
    fuzzImportCommand(seed: seed, count: number(arguments[1]))

case ("report-into-closed-error", 0):
    reportIntoClosedErrorCommand()

case ("command-line-read", 1):
    commandLineReadCommand(toolName: arguments[0])

case ("defaults-open", 1):
    do {
        let store = try UserDefaultsStore(suiteName: arguments[0])
        say("read \(describe(store.value(forKey: "key")))")
    } catch {
        say("error \(error)")
    }

case ("parse-or-exit", _) where !arguments.isEmpty:
    parseOrExitCommand(toolName: arguments[0], arguments: Array(arguments.dropFirst()))

case ("write-while-printing", 2):
    writeWhilePrintingCommand(path: arguments[0], count: number(arguments[1]))

case ("application-write", 3):
    applicationWriteCommand(application: arguments[0], key: arguments[1], value: arguments[2])

case ("report-after-command-line", 1), ("report-after-command-line", 2):
    reportAfterCommandLineCommand(toolName: arguments[0], withHandler: arguments.count == 2)

default:
    fail("unknown command or wrong arguments: \(CommandLine.arguments.dropFirst().joined(separator: " "))")
}
