import Foundation
import StoredSettings
import StoredSettingsMigrations

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The store `migrate` and `write-version-1` open: the UserDefaults suite at `SUITE` (its
/// domain file without `.plist`) for `defaults:SUITE`, else the settings file at PATH.
private func openTransactionalStore(_ path: String) -> any TransactionalStore {
    guard path.hasPrefix("defaults:") else { return openStore(path) }
    do {
        return try UserDefaultsStore(suiteAtPath: String(path.dropFirst("defaults:".count)))
    } catch {
        fail("cannot open \(path): \(error)")
    }
}

/// `write-version-1 PATH`: the settings file (or `defaults:SUITE`) as version 1 of an app left
/// it: `wrap` 60, `pageSize` as the text "3", `theme` "dark". Prints `done`.
func writeVersionOneCommand(path: String) {
    let store = openTransactionalStore(path)
    do {
        try store.batch { batch in
            batch["wrap"] = .int(60)
            batch["pageSize"] = .string("3")
            batch["theme"] = .string("dark")
        }
    } catch {
        fail("write failed: \(error)")
    }
    say("done")
}

/// `migrate PATH LOG [KILL_IN]`: opens the file or `defaults:SUITE` (then prints `opened`), then opens it through a
/// ``MigratingStore`` with two migrations and one renamed key, as version 3 of the app does,
/// and prints `version <n>`, `layout <value>`, `pageSize <value>` and `appearance <value>`, or
/// `error <code> <message>`.
///
/// - Version 2 moves `wrap` into `layout` as `{"wrapColumn": wrap}`.
/// - Version 3 turns `pageSize` from text into a number.
/// - `theme` is renamed `appearance` (read through, moved on the first write).
///
/// Each migration first appends `<version> <pid>` to LOG, opened with `O_APPEND` (one
/// `write(2)` per line), so the test can count how often each ran across processes. With
/// KILL_IN, the migration of that version sends this process SIGKILL right after its line.
func migrateCommand(path: String, log: String, killIn: Int?) {
    @Sendable func ran(_ version: Int) {
        let fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { fail("cannot open \(log)") }
        let line = Array("\(version) \(getpid())\n".utf8)
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if killIn == version { kill(getpid(), SIGKILL) }
    }
    let migrations = [
        Migration(version: 2) { batch in
            ran(2)
            if case .int(let column)? = batch["wrap"] {
                batch["layout"] = .dictionary(["wrapColumn": .int(column)])
                batch["wrap"] = nil
            }
        },
        Migration(version: 3) { batch in
            ran(3)
            if case .string(let text)? = batch["pageSize"], let size = Int64(text) { batch["pageSize"] = .int(size) }
        },
    ]
    do {
        let file = openTransactionalStore(path)
        say("opened")
        let store = try MigratingStore(
            file, renamedKeys: [KeyRename(from: "theme", to: "appearance")], migrations: migrations)
        say("version \(store.schemaVersion)")
        say("layout \(describe(store.value(forKey: "layout")))")
        say("pageSize \(describe(store.value(forKey: "pageSize")))")
        say("appearance \(describe(store.value(forKey: "appearance")))")
    } catch let error as StorageError {
        say("error \(error.code) \(error)")
    } catch {
        say("error other \(error)")
    }
}
