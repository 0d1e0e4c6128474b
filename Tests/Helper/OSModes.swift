import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Commands that put a FileStore next to what the operating system and other programs do to its
// file: descriptor limits, an editor that saves in place, a loop deleting the lock file.

/// `read PATH`: opens a store (with its change check) and prints `ok <key count>` or
/// `error <code> <description>`.
func readCommand(path: String) {
    do {
        let store = try FileStore(url: URL(fileURLWithPath: path))
        say("ok \(store.keys().count)")
    } catch let error as StorageError {
        say("error \(error.code) \(error)")
    } catch {
        say("error other \(error)")
    }
}

/// `descriptor-limit FREE PATH`: lowers RLIMIT_NOFILE until exactly FREE descriptor numbers are
/// free, then opens a store on PATH with the default options (change check on) and tries one
/// write. Prints `open ok` or `open error <code> <description>`, `value <a>`, and
/// `write ok` or `write error <code> <description>`.
func descriptorLimitCommand(free: Int, path: String) {
    // The limit is the (FREE + 1)-th unused descriptor number: below it, FREE are unused.
    var limit = 0
    var unused = 0
    while true {
        if fcntl(Int32(limit), F_GETFD) == -1 {
            if unused == free { break }
            unused += 1
        }
        limit += 1
    }
    guard ResourceLimit.set(ResourceLimit.openFiles, to: rlim_t(limit)) else { fail("setrlimit(RLIMIT_NOFILE) failed") }
    let store: FileStore
    do {
        store = try FileStore(url: URL(fileURLWithPath: path))
        say("open ok")
    } catch let error as StorageError {
        say("open error \(error.code) \(error)")
        return
    } catch {
        say("open error other \(error)")
        return
    }
    say("value \(describe(store.value(forKey: "a")))")
    do {
        try store.setValue(.string("written"), forKey: "probe")
        say("write ok")
    } catch let error as StorageError {
        say("write error \(error.code) \(error)")
    } catch {
        say("write error other \(error)")
    }
}

/// `rewrite-in-place PATH ROUNDS GAP_MICROSECONDS`: ROUNDS times, does what an editor that
/// saves in place does: read the file, truncate it (`O_TRUNC`), pause GAP microseconds, write
/// the bytes back through the same descriptor. Prints `done`. The pauses are the pacing of
/// the simulated editor, not a wait of any test: the test only waits for `done`.
func rewriteInPlaceCommand(path: String, rounds: Int, gap: Int) {
    for _ in 0..<rounds {
        guard let bytes = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
        let fd = open(path, O_WRONLY | O_TRUNC)
        guard fd >= 0 else { fail("cannot open \(path)") }
        if gap > 0 { usleep(useconds_t(gap)) }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        usleep(useconds_t(max(gap, 1)))
    }
    say("done")
}

/// `truncate-and-stop PATH`: reads the file, truncates it in place, prints `truncated`, stops
/// itself with SIGSTOP, and once continued writes the bytes back and prints `restored`: an
/// editor caught in the middle of its save.
func truncateAndStopCommand(path: String) {
    guard let bytes = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    let fd = open(path, O_WRONLY | O_TRUNC)
    guard fd >= 0 else { fail("cannot open \(path)") }
    say("truncated")
    raise(SIGSTOP)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    say("restored")
}

/// `stop-mid-write PATH KEY SIZE LIMIT`: sets RLIMIT_FSIZE to LIMIT bytes and makes SIGXFSZ
/// stop the process, then writes a SIZE-character value to KEY. The write stops itself where
/// the temporary file reaches LIMIT: holding the lock, its temporary file in the folder, as a
/// writer suspended with Ctrl-Z. Once continued, the write fails (`File too large`). Prints
/// `ready` before writing, then `ok` or `error <code> <description>`.
func stopMidWriteCommand(path: String, key: String, size: Int, limit: Int) {
    let store = openStore(path)
    signal(SIGXFSZ) { _ in _ = raise(SIGSTOP) }
    // A parent may have blocked SIGXFSZ (the mask is inherited): unblock it.
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    sigaddset(&unblocked, SIGXFSZ)
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    guard ResourceLimit.set(ResourceLimit.fileSize, to: rlim_t(limit)) else { fail("setrlimit(RLIMIT_FSIZE) failed") }
    say("ready")
    do {
        try store.setValue(.string(String(repeating: "S", count: size)), forKey: key)
        say("ok")
    } catch let error as StorageError {
        say("error \(error.code) \(error)")
    } catch {
        say("error other \(error)")
    }
}
