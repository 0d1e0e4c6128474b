import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `defaults-store SUITE ACTION KEY [NUMBER] [-KEY VALUE ...]`: one step on a
/// `UserDefaultsStore(suiteName: SUITE)`, through the library rather than `UserDefaults`
/// itself, and never with an explicit `synchronize()`. Arguments after the action's own are
/// left for `UserDefaults`' argument domain (`-count 100`).
///
///   set KEY NUMBER         `$setting.save(NUMBER)`; prints `ok`, then exits normally; or
///                          prints `error <code> <message>` and `memory <value read back>`
///   set-and-hold KEY NUMBER  the same, prints `set`, then waits in `pause()` until
///                          a signal ends it (a test sends SIGKILL)
///   set-text KEY TEXT      `Stored<String>` save of TEXT; prints `ok`
///   increment KEY          `$count.update { $0 += 1 }`; prints `ok`
///   read KEY               prints `value <the setting's value>` and `persisted <the value in
///                          the suite's domain file, or -absent->`
func runDefaultsStore(_ arguments: [String]) {
    guard arguments.count >= 3 else { fail("defaults-store needs SUITE ACTION KEY") }
    let (suite, action, key) = (arguments[0], arguments[1], arguments[2])
    let store: UserDefaultsStore
    do {
        store = try UserDefaultsStore(suiteName: suite)
    } catch {
        fail("cannot open suite \(suite): \(error)")
    }
    let setting = Stored<Int>(key, default: 0, store: store)
    switch action {
    case "set", "set-and-hold":
        guard arguments.count >= 4 else { fail("\(action) needs KEY NUMBER") }
        do {
            try setting.save(number(arguments[3]))
        } catch let error as StorageError {
            say("error \(error.code) \(error)")
            say("memory \(setting.wrappedValue)")
            return
        } catch {
            fail("save failed: \(error)")
        }
        if action == "set" {
            say("ok")
        } else {
            say("set")
            while true { pause() }
        }
    case "set-text":
        guard arguments.count >= 4 else { fail("set-text needs KEY TEXT") }
        do {
            try Stored<String>(key, default: "", store: store).save(arguments[3])
        } catch {
            fail("save failed: \(error)")
        }
        say("ok")
    case "increment":
        do {
            try setting.update { $0 += 1 }
        } catch {
            fail("update failed: \(error)")
        }
        say("ok")
    case "read":
        say("value \(setting.wrappedValue)")
        say("persisted \(persistedValue(suite: suite, key: key))")
    default:
        fail("unknown defaults-store action \(action)")
    }
}

/// The value of `key` in the suite's domain file as Foundation on Linux keeps it
/// (`$XDG_CONFIG_HOME/SUITE.plist`, else `$HOME/.config/SUITE.plist`), read as a property list.
private func persistedValue(suite: String, key: String) -> String {
    let environment = ProcessInfo.processInfo.environment
    let folder = environment["XDG_CONFIG_HOME"] ?? ((environment["HOME"] ?? "") + "/.config")
    guard let data = FileManager.default.contents(atPath: folder + "/" + suite + ".plist") else { return "-absent-" }
    guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
        return "-unreadable-"
    }
    return plist[key].map { "\($0)" } ?? "-absent-"
}
