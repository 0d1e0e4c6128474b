// etcd-test-helper: the child process the etcd tests launch.
//
// Each command opens an EtcdStore on ADDRESS (etcd://HOST:PORT[,…]/PREFIX) and reports on
// standard output, one `word value` line per fact, written at once.
//
//   increment ADDRESS KEY N   N × update { $0 += 1 } on KEY; prints `ready` once open, then
//                             `done N`, or `error <message>` at the first failure
//   write ADDRESS KEY VALUE   sets KEY to the integer VALUE; prints `wrote`
//   watch ADDRESS COUNT       prints `ready` once subscribed, then `change KEY VALUE` for each
//                             of the next COUNT changes
//   cache ADDRESS FILE        with FILE as the snapshot cache, sets `k` to 1, 2, 3, … until
//                             killed; prints `wrote N` after each
//   open ADDRESS GATE HOLD    prints `waiting`, reads the FIFO GATE to its end (the test closes
//                             it to start every child at once), then opens with the default
//                             settings; prints `opened N` (N keys) and keeps the store open
//                             until the FIFO HOLD ends

import Foundation
import StoredSettings
import StoredSettingsEtcd

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("etcd-test-helper: \(message)\n".utf8))
    exit(64)
}

func open(_ address: String, cache: String? = nil) -> EtcdStore {
    do {
        var configuration = try EtcdStore.Configuration(address: address)
        configuration.snapshotCacheFile = cache.map { URL(fileURLWithPath: $0) }
        return try EtcdStore(configuration: configuration)
    } catch {
        fail("cannot open \(address): \(error)")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "increment" where arguments.count == 4:
    guard let count = Int(arguments[3]) else { fail("N must be a number") }
    let store = open(arguments[1])
    say("ready")
    for _ in 0..<count {
        do {
            try store.update(forKey: arguments[2]) { value in
                if case .int(let number)? = value { value = .int(number + 1) } else { value = .int(1) }
            }
        } catch {
            say("error \(error)")
            exit(1)
        }
    }
    say("done \(count)")
case "write" where arguments.count == 4:
    guard let number = Int64(arguments[3]) else { fail("VALUE must be an integer") }
    let store = open(arguments[1])
    do {
        try store.setValue(.int(number), forKey: arguments[2])
        say("wrote")
    } catch {
        say("error \(error)")
        exit(1)
    }
case "watch" where arguments.count == 3:
    guard let count = Int(arguments[2]) else { fail("COUNT must be a number") }
    let store = open(arguments[1])
    let stream = store.changes()
    let done = DispatchSemaphore(value: 0)
    Task {
        var seen = 0
        say("ready")
        for await change in stream {
            let value = change.value.map { String(describing: $0) } ?? "-absent-"
            say("change \(change.key) \(value)")
            seen += 1
            if seen == count { break }
        }
        done.signal()
    }
    done.wait()
case "cache" where arguments.count == 3:
    let store = open(arguments[1], cache: arguments[2])
    for number in Int64(1)... {
        do {
            try store.setValue(.int(number), forKey: "k")
            if number == 1 { store.flushSnapshotCache() }
            say("wrote \(number)")
        } catch {
            say("error \(error)")
            exit(1)
        }
    }
case "open" where arguments.count == 4:
    guard let gate = FileHandle(forReadingAtPath: arguments[2]), let hold = FileHandle(forReadingAtPath: arguments[3])
    else { fail("cannot open \(arguments[2]) or \(arguments[3])") }
    say("waiting")
    _ = gate.readDataToEndOfFile()
    let store = open(arguments[1])
    say("opened \(store.keys().count)")
    _ = hold.readDataToEndOfFile()
default:
    fail(
        "usage: increment ADDRESS KEY N | write ADDRESS KEY VALUE | watch ADDRESS COUNT | cache ADDRESS FILE | open ADDRESS GATE HOLD"
    )
}
