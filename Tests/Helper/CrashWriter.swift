import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `crash-write PATH KEY SIZE` and `defaults-crash-write SUITE KEY SIZE`: rewrite KEY with
/// SIZE-character strings of one letter (A, B, C, …) until the process kills itself with
/// SIGKILL at a random moment.
///
/// The moment is drawn from the first rewrite's own duration (anywhere in the next two
/// rewrites), so kills land in every phase of a write: encoding, writing, `fsync`, `rename`.
/// Encoding takes most of a large write, so for half the kills (chosen at random), when
/// `temporaryFiles` names the folder and name prefix of the store's temporary files, the killer
/// first waits (up to four cycles) for a temporary file to appear and kills within the next
/// eighth of a cycle: while the new file is being written, synced or renamed.
/// The child, not the test, places the kill: the test only waits for the child to end and
/// then looks at the file, so it reads no clock and its outcome does not depend on timing.
func crashWrite(size: Int, temporaryFiles: (folder: String, prefix: String)? = nil, write: (String) throws -> Void)
    -> Never
{
    var letter = UInt8(ascii: "A")
    func next() -> String {
        defer { letter = letter == UInt8(ascii: "Z") ? UInt8(ascii: "A") : letter + 1 }
        return String(repeating: Character(Unicode.Scalar(letter)), count: size)
    }
    let start = DispatchTime.now().uptimeNanoseconds
    do { try write(next()) } catch { fail("write failed: \(error)") }
    let cycle = max(DispatchTime.now().uptimeNanoseconds - start, 1_000)
    let duringWrite = temporaryFiles != nil && Bool.random()
    let delay = duringWrite ? UInt64.random(in: 0..<max(cycle / 8, 1)) : UInt64.random(in: 0..<(2 * cycle))
    say("armed \(duringWrite ? "during-write" : "anywhere") \(delay / 1_000)")
    // The killer: a thread that waits `delay` and ends the process as `kill -9` would.
    let killer = Thread {
        if duringWrite, let temporaryFiles {
            // Looks every 20 µs; gives up after four cycles (a store that wrote no temporary
            // file) and kills anyway.
            let giveUp = DispatchTime.now().uptimeNanoseconds + 4 * cycle
            var look = timespec(tv_sec: 0, tv_nsec: 20_000)
            while !folder(temporaryFiles.folder, holdsNameStartingWith: temporaryFiles.prefix),
                DispatchTime.now().uptimeNanoseconds < giveUp
            {
                nanosleep(&look, nil)
            }
        }
        var pause = timespec(tv_sec: Int(delay / 1_000_000_000), tv_nsec: Int(delay % 1_000_000_000))
        var left = timespec()
        while nanosleep(&pause, &left) != 0, errno == EINTR { pause = left }
        kill(getpid(), SIGKILL)
    }
    killer.start()
    while true {
        do { try write(next()) } catch { fail("write failed: \(error)") }
    }
}

/// Whether a name in `folder` starts with `prefix` (one `readdir` pass).
func folder(_ folder: String, holdsNameStartingWith prefix: String) -> Bool {
    guard let directory = opendir(folder) else { return false }
    defer { closedir(directory) }
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name.hasPrefix(prefix) { return true }
    }
    return false
}
