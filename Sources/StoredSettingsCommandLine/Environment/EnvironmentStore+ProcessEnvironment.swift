import Foundation
import StoredSettings

extension EnvironmentStore {
    /// `bytes` as text when they are valid UTF-8, else `nil` (never U+FFFD in place of them).
    static func utf8Text(_ bytes: ArraySlice<UInt8>) -> String? {
        let valid = bytes.withUnsafeBytes(\.isValidUTF8)
        return valid ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The error for the variable `name`, which gives `key` (at `codingPath`, for a field), whose
    /// value is not valid UTF-8.
    static func notUTF8Error(key: String, variable name: String, codingPath: [String] = []) -> StorageError {
        StorageError(
            .dataCorrupted, key: key, location: "environment variable \(name)", codingPath: codingPath,
            message: "the value is not valid UTF-8")
    }

    /// The process's environment as `NAME=VALUE` bytes, from `environ`: with an ASCII
    /// `prefix`, only the entries whose bytes start with it (see
    /// ``processVariables(withPrefix:)``).
    static func processEnvironment(withPrefix prefix: String) -> [[UInt8]] {
        var entries: [[UInt8]] = []
        forEachEnvironmentEntry(withPrefix: prefix) { entries.append(Array($0)) }
        return entries
    }

    /// Calls `body` with each entry of `environ`, in order; with an ASCII `prefix`, skips those
    /// whose first bytes are ASCII and differ from it (a non-ASCII character may still equal an
    /// ASCII one: U+212A KELVIN SIGN is `K` to `String`).
    private static func forEachEnvironmentEntry(withPrefix prefix: String, _ body: (UnsafeRawBufferPointer) -> Void) {
        let skipped = prefix.utf8.allSatisfy { $0 < 0x80 } ? Array(prefix.utf8) : []
        ProcessEnvironment.forEachEntry { bytes in
            if bytes.starts(with: skipped) || bytes.prefix(skipped.count).contains(where: { $0 >= 0x80 }) {
                body(bytes)
            }
        }
    }
}

extension EnvironmentStore {
    /// The process's environment as `ProcessInfo.processInfo.environment` gives it on Linux
    /// (split at the first `=`, the last of a repeated name kept, invalid UTF-8 as U+FFFD), read
    /// from `environ` directly, which is faster. With an ASCII `prefix`, holds every variable
    /// with the prefix and perhaps a few more.
    ///
    /// Thread-safety: a concurrent `setenv` may change `environ` under it, as under ProcessInfo.
    package static func processVariables(withPrefix prefix: String = "") -> [String: String] {
        var variables: [String: String] = [:]
        forEachEnvironmentEntry(withPrefix: prefix) { bytes in
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return }
            // Foundation splits at the first `=` Character, which is the first `=` byte only
            // with ASCII on both sides (a combining mark joins it to its neighbour).
            if (equals == 0 || bytes[equals - 1] < 0x80) && (equals + 1 == bytes.count || bytes[equals + 1] < 0x80) {
                variables[String(decoding: bytes[..<equals], as: UTF8.self)] = String(
                    decoding: bytes[(equals + 1)...], as: UTF8.self)
            } else {
                let text = String(decoding: bytes, as: UTF8.self)
                if let split = text.firstIndex(of: "=") {
                    variables[String(text[..<split])] = String(text[text.index(after: split)...])
                }
            }
        }
        return variables
    }
}
