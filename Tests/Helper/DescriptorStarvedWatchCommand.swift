import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `starved-watch PATH`: a store that watches its file, whose process runs out of descriptors
/// on request. Prints `ready` once the store is open, `changed KEY VALUE` for each change it
/// delivers and `reported CODE` for each error reported; then reads commands from standard
/// input, one a line: `exhaust` takes every free descriptor (prints `exhausted`), `free` gives
/// them back (prints `freed`). Ends at the end of standard input.
func starvedWatchCommand(path: String) {
    StorageErrorReporter.setHandler { error in say("reported \(error.code)") }
    let store: FileStore
    do { store = try FileStore(url: URL(fileURLWithPath: path)) } catch { fail("cannot open \(path): \(error)") }
    let changes = store.changes()
    let forwarder = Thread {
        let done = DispatchSemaphore(value: 0)
        Task {
            for await change in changes { say("changed \(change.key) \(describe(change.value))") }
            done.signal()
        }
        done.wait()
    }
    forwarder.start()
    say("ready")
    var taken: [Int32] = []
    var original = rlimit()
    getrlimit(ResourceLimit.openFiles, &original)
    while let line = readLine() {
        switch line {
        case "exhaust":
            // A soft limit a little above the descriptors in use: a few dozen opens fill it.
            var highest: Int32 = 0
            for fd in 0..<Int32(4096) where fcntl(fd, F_GETFD) != -1 { highest = fd }
            var limit = original
            limit.rlim_cur = min(original.rlim_cur, rlim_t(highest + 32))
            guard setrlimit(ResourceLimit.openFiles, &limit) == 0 else { fail("setrlimit(RLIMIT_NOFILE) failed") }
            while true {
                let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { break }
                taken.append(fd)
            }
            guard errno == EMFILE else { fail("open failed other than with EMFILE: \(errno)") }
            say("exhausted")
        case "free":
            for fd in taken { close(fd) }
            taken = []
            _ = setrlimit(ResourceLimit.openFiles, &original)
            say("freed")
        default:
            fail("unknown command \(line)")
        }
    }
    withExtendedLifetime(store) {}
}
