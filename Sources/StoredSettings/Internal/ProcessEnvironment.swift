#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment read from the bytes of the C `environ` array, so that a value that
/// is not valid UTF-8 is noticed. Thread-safety: a concurrent `setenv` may change `environ` under
/// a read, as under ProcessInfo.
package enum ProcessEnvironment {
    /// The process's variables `names` (split at the first `=`, the last of a repeated name
    /// kept, as Foundation), and which of them hold bytes that are not valid UTF-8 (whose text
    /// then has U+FFFD in their place, and names another path than the bytes do).
    package static func variables(named names: Set<String>) -> (values: [String: String], notUTF8: Set<String>) {
        var values: [String: String] = [:]
        var notUTF8: Set<String> = []
        // An entry whose first byte is ASCII and starts none of the names is skipped undecoded.
        let firstBytes = Set(names.compactMap(\.utf8.first))
        forEachEntry { bytes in
            if let first = bytes.first, first < 0x80, !firstBytes.contains(first) { return }
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return }
            let name = String(decoding: bytes[..<equals], as: UTF8.self)
            guard names.contains(name) else { return }
            let value = UnsafeRawBufferPointer(rebasing: bytes[(equals + 1)...])
            values[name] = String(decoding: value, as: UTF8.self)
            if value.isValidUTF8 { notUTF8.remove(name) } else { notUTF8.insert(name) }
        }
        return (values, notUTF8)
    }

    /// Calls `body` with the bytes of each `NAME=VALUE` entry of `environ`, in order.
    package static func forEachEntry(_ body: (UnsafeRawBufferPointer) -> Void) {
        guard var pointer = environmentPointer() else { return }
        while let entry = pointer.pointee {
            body(UnsafeRawBufferPointer(start: entry, count: strlen(entry)))
            pointer += 1
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
