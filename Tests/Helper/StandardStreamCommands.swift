import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `write-while-printing PATH N`: for a process started with standard input and output
/// closed. One thread writes `noise` lines to descriptor 1 until the main thread has set
/// `count` to 0 … N-1 in the store at PATH, one write each. Says nothing (standard output is
/// closed); exits 0 when every write succeeded, the file reads back `count` = N-1 and
/// descriptors 0 and 1 hold no file; 1 when a write failed, 2 when the file does not read
/// back, 3 when descriptor 0 or 1 is a file (its error on standard error).
func writeWhilePrintingCommand(path: String, count: Int) {
    let store = openStore(path)
    let done = Lock(false)
    let printer = Thread {
        let noise = Array("noise\n".utf8)
        while !done.value {
            _ = noise.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        }
    }
    printer.start()
    for round in 0..<count {
        do {
            try store.setValue(.int(Int64(round)), forKey: "count")
        } catch {
            writeToStandardError("write \(round) failed: \(error)\n")
            exit(1)
        }
    }
    done.withLock { $0 = true }
    do {
        let reopened = try FileStore(
            url: URL(fileURLWithPath: path), options: FileStore.Options(changeCheckInterval: nil))
        guard reopened.value(forKey: "count") == .int(Int64(count - 1)) else {
            writeToStandardError("read back \(String(describing: reopened.value(forKey: "count")))\n")
            exit(2)
        }
    } catch {
        writeToStandardError("cannot read back: \(error)\n")
        exit(2)
    }
    // Closed, or the `/dev/null` placeholder the package opens there: never a file of the store.
    for fd: Int32 in [0, 1] {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT != S_IFCHR else { continue }
        writeToStandardError("descriptor \(fd) is open on a file\n")
        exit(3)
    }
    exit(0)
}

/// `application-write TOOL KEY VALUE`: sets KEY to VALUE in `FileStore(application: TOOL)`,
/// whose folder comes from this process's `XDG_CONFIG_HOME` or `HOME`. Prints `ok <path>` or
/// `error <code> <message>`.
func applicationWriteCommand(application: String, key: String, value: String) {
    do {
        let store = try FileStore(application: application, options: FileStore.Options(changeCheckInterval: nil))
        try store.setValue(.string(value), forKey: key)
        say("ok \(store.url.path)")
    } catch let error as StorageError {
        say("error \(error.code) \(error)")
    } catch {
        say("error \(error)")
    }
}
