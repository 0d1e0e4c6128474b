import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment from its bytes (the C `environ` array), by StoredSettings' rule:
/// an entry that is not valid UTF-8 is never read with U+FFFD in place of its bytes
/// (`ProcessInfo.processInfo.environment` reads it so, and would name another path or secret).
enum ProcessEnvironment {
    /// The entries that are valid UTF-8, by name, the last of a repeated name kept; and the
    /// names of the others (spelt with U+FFFD where the name itself is not UTF-8).
    static func read() -> (text: [String: String], notUTF8: Set<String>) {
        var text: [String: String] = [:]
        var notUTF8: Set<String> = []
        #if canImport(Darwin)
        guard var pointer = _NSGetEnviron().pointee else { return (text, notUTF8) }
        #else
        guard var pointer = environ as UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? else {
            return (text, notUTF8)
        }
        #endif
        while let entry = pointer.pointee {
            pointer += 1
            let bytes = UnsafeRawBufferPointer(start: entry, count: strlen(entry))
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = String(decoding: bytes[..<equals], as: UTF8.self)
            if String(validatingCString: entry) != nil {
                text[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
                notUTF8.remove(name)
            } else {
                text[name] = nil
                notUTF8.insert(name)
            }
        }
        return (text, notUTF8)
    }
}
