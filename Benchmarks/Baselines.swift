import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The baseline for reads: what an app would write by hand, a `[String: StoredValue]`
/// behind an `NSLock`, looked up and switched on.
final class LockedDictionary: @unchecked Sendable {
    // Safe because `values` is only touched between `lock.lock()` and `lock.unlock()`.
    private let lock = NSLock()
    private var values: [String: StoredValue]

    init(_ values: [String: StoredValue]) {
        self.values = values
    }

    /// The Boolean under `key`, or `fallback` when absent or not a Boolean.
    @inline(never)
    func bool(forKey key: String, default fallback: Bool) -> Bool {
        lock.lock()
        let value = values[key]
        lock.unlock()
        switch value {
        case .bool(let flag)?: return flag
        default: return fallback
        }
    }
}

/// The baseline for durable writes: the same bytes written by hand with POSIX calls, a
/// temporary file in the same folder, `write`, `fsync`, `rename`, then `fsync` of the folder.
struct ManualDurableWrite {
    let directory: String
    let target: String

    init(directory: URL, fileName: String) {
        self.directory = directory.path
        self.target = directory.appendingPathComponent(fileName).path
    }

    /// Writes `bytes` durably; returns `false` on any failed call.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        let temporary = target + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let written = bytes.withUnsafeBytes { buffer in
            buffer.baseAddress.map { DescriptorWrite.writeBytes(fd, $0, buffer.count) } ?? 0
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, target) == 0 else { return false }
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return false }
        defer { close(folder) }
        return fsync(folder) == 0
    }
}

/// A fresh temporary folder, removed by ``remove()``.
struct ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("stored-benchmarks-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A UserDefaults suite with a unique name, removed by ``remove()``.
struct ScratchDefaults {
    let name: String
    let defaults: UserDefaults

    init() throws {
        name = "stored-benchmarks-\(UUID().uuidString)"
        guard let defaults = UserDefaults(suiteName: name) else {
            throw BenchmarkError("UserDefaults refused the suite \(name)")
        }
        self.defaults = defaults
    }

    func remove() {
        defaults.removePersistentDomain(forName: name)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `count` settings with mixed kinds, keyed `key-00000`…, as a settings file would hold them.
func sampleValues(count: Int) -> [String: StoredValue] {
    var values: [String: StoredValue] = [:]
    values.reserveCapacity(count)
    for index in 0..<count {
        let key = "key-" + String(index).leftPadded(to: 5)
        switch index % 4 {
        case 0: values[key] = .bool(index % 8 == 0)
        case 1: values[key] = .int(Int64(index) * 7)
        case 2: values[key] = .double(Double(index) / 8)
        default: values[key] = .string("value number \(index)")
        }
    }
    return values
}

/// JSON bytes of a settings file with `count` keys, as `FileStore` writes it.
func sampleFile(count: Int) throws -> Data {
    try StoredValueJSON.data(from: .dictionary(sampleValues(count: count)))
}

/// Resident memory of this process in bytes (`/proc/self/statm`); 0 where it is missing.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
