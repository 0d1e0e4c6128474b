import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#endif

/// The median of `runs` timings of `body`, in microseconds.
func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
    }
    return samples.sorted()[runs / 2]
}

/// Prints FileStore's costs next to the baselines the project measures it against.
func measure(folder: String) {
    do {
        let url = URL(fileURLWithPath: folder).appendingPathComponent("measure.json")
        let store = try FileStore(url: url, options: FileStore.Options(changeCheckInterval: nil))
        try store.batch { batch in
            for index in 0..<10_000 {
                switch index % 4 {
                case 0: batch["key.\(index)"] = .int(Int64(index) * 7919)
                case 1: batch["key.\(index)"] = .double(Double(index) / 3)
                case 2: batch["key.\(index)"] = .string("value number \(index)")
                default: batch["key.\(index)"] = .bool(index % 8 == 3)
                }
            }
        }
        let bytes = try Data(contentsOf: url)
        let parse = try median(21) { _ = try JSONSerialization.jsonObject(with: bytes) }
        let open = try median(21) { _ = try FileStore(url: url, options: FileStore.Options(changeCheckInterval: nil)) }
        say(
            "open 10000 keys (\(bytes.count) bytes): FileStore \(Int(open)) µs, JSONSerialization \(Int(parse)) µs, ratio \(String(format: "%.2f", open / parse))"
        )

        var counter: Int64 = 0
        let write = try median(51) {
            counter += 1
            try store.setValue(.int(counter), forKey: "key.0")
        }
        let raw = URL(fileURLWithPath: folder).appendingPathComponent("raw.json").path
        let rawWrite = median(51) { rawDurableWrite(bytes, to: raw) }
        say(
            "durable write 10000 keys: FileStore \(Int(write)) µs, write+fsync+rename+fsync \(Int(rawWrite)) µs, ratio \(String(format: "%.2f", write / rawWrite))"
        )

        let small = URL(fileURLWithPath: folder).appendingPathComponent("small.json")
        let smallStore = try FileStore(url: small, options: FileStore.Options(changeCheckInterval: nil))
        try smallStore.batch { batch in for index in 0..<20 { batch["k\(index)"] = .int(Int64(index)) } }
        let smallBytes = try Data(contentsOf: small)
        let smallWrite = try median(101) {
            counter += 1
            try smallStore.setValue(.int(counter), forKey: "k0")
        }
        let smallRaw = median(101) { rawDurableWrite(smallBytes, to: raw) }
        say(
            "durable write 20 keys: FileStore \(Int(smallWrite)) µs, write+fsync+rename+fsync \(Int(smallRaw)) µs, ratio \(String(format: "%.2f", smallWrite / smallRaw))"
        )

        let lock = NSLock()
        let dictionary: [String: StoredValue] = ["key.1": .int(1)]
        var sink = 0
        let iterations = 1_000_000
        let baseline = median(5) {
            for _ in 0..<iterations {
                lock.lock()
                if dictionary["key.1"] != nil { sink &+= 1 }
                lock.unlock()
            }
        }
        let reads = median(5) {
            for _ in 0..<iterations where store.value(forKey: "key.1") != nil { sink &+= 1 }
        }
        say(
            "read: FileStore \(String(format: "%.1f", reads * 1000 / Double(iterations))) ns, locked dictionary \(String(format: "%.1f", baseline * 1000 / Double(iterations))) ns, ratio \(String(format: "%.2f", reads / baseline)) (\(sink % 2))"
        )
    } catch {
        fail("measure failed: \(error)")
    }
}

/// The baseline of a durable write: temporary file, write, fsync, rename, fsync the folder.
func rawDurableWrite(_ data: Data, to path: String) {
    let temporary = path + ".tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    fsync(fd)
    close(fd)
    rename(temporary, path)
    let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY)
    fsync(directory)
    close(directory)
}
