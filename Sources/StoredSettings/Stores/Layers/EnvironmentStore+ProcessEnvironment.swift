import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension EnvironmentStore {
    /// `bytes` as text when they are valid UTF-8, else `nil` (never U+FFFD in place of them).
    static func utf8Text(_ bytes: ArraySlice<UInt8>) -> String? {
        let valid = bytes.withUnsafeBytes { StoredValueJSON.Parser.isValidUTF8($0) }
        return valid ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The process's environment as bytes, from `environ`.
    static func processEnvironment() -> [[UInt8]] {
        var entries: [[UInt8]] = []
        guard var pointer = environmentPointer() else { return [] }
        while let entry = pointer.pointee {
            entries.append(Array(UnsafeRawBufferPointer(start: entry, count: strlen(entry))))
            pointer += 1
        }
        return entries
    }
}

/// The C `environ` array of the process.
private func environmentPointer() -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    #if canImport(Darwin)
    // Darwin exports `environ` to executables only; `_NSGetEnviron()` is the library's way
    // to it (<crt_externs.h>).
    _NSGetEnviron().pointee
    #else
    environ
    #endif
}
