#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few variables of the process the library reads itself (`XDG_CONFIG_HOME`, `HOME`), from
/// the bytes of the C `environ` array, so that a value that is not valid UTF-8 is noticed.
enum ProcessEnvironment {
    /// The process's variables `names` (split at the first `=`, the last of a repeated name
    /// kept, as Foundation), and which of them hold bytes that are not valid UTF-8 (whose text
    /// then has U+FFFD in their place, and names another path than the bytes do).
    ///
    /// Thread-safety: a concurrent `setenv` may change `environ` under it, as under ProcessInfo.
    static func variables(named names: Set<String>) -> (values: [String: String], notUTF8: Set<String>) {
        var values: [String: String] = [:]
        var notUTF8: Set<String> = []
        // An entry whose first byte is ASCII and starts none of the names is skipped undecoded.
        let firstBytes = Set(names.compactMap(\.utf8.first))
        guard var pointer = environmentPointer() else { return (values, notUTF8) }
        while let entry = pointer.pointee {
            pointer += 1
            let bytes = UnsafeRawBufferPointer(start: entry, count: strlen(entry))
            if let first = bytes.first, first < 0x80, !firstBytes.contains(first) { continue }
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = String(decoding: bytes[..<equals], as: UTF8.self)
            guard names.contains(name) else { continue }
            let value = UnsafeRawBufferPointer(rebasing: bytes[(equals + 1)...])
            values[name] = String(decoding: value, as: UTF8.self)
            if isValidUTF8(value) { notUTF8.remove(name) } else { notUTF8.insert(name) }
        }
        return (values, notUTF8)
    }

    private static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// The C `environ` array of the process.
    private static func environmentPointer() -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        // Darwin exports `environ` to executables only; `_NSGetEnviron()` is the library's way
        // to it (<crt_externs.h>).
        _NSGetEnviron().pointee
        #else
        environ
        #endif
    }
}
