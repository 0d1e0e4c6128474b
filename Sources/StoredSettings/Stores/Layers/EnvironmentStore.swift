import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only store of the environment variables that start with a prefix: the layer through
/// which CI jobs and shells override a tool's settings.
///
/// ```swift
/// let environment = EnvironmentStore(prefix: "DAYBOOK")
/// // DAYBOOK_AUTO_RELOAD=yes daybook   →   environment.value(forKey: "autoReload") == .string("yes")
/// ```
///
/// ## Variable names
///
/// A key's variable is the prefix, `_`, then the key's words in capitals joined by `_`:
///
/// | Key | Variable (prefix `APP`) |
/// |---|---|
/// | `autoReload` | `APP_AUTO_RELOAD` |
/// | `editor.fontSize` | `APP_EDITOR_FONT_SIZE` |
/// | `httpURL` | `APP_HTTP_URL` |
/// | `HTTPServer` | `APP_HTTP_SERVER` |
/// | `http2Enabled` | `APP_HTTP2_ENABLED` |
///
/// Words are split at `.`, `-`, `_`, `/`, `:` and spaces, where a lowercase letter or digit is
/// followed by a capital, and where a run of capitals (an acronym) meets a capitalized word.
/// Digits stay with the word before them. Keys with other characters (non-ASCII, emoji, `@`)
/// have no variable: ``variableName(forKey:)`` returns `nil` and the store holds no value for
/// them. Several keys can share a variable (`autoReload`, `auto_reload` and `auto.reload` all
/// read `APP_AUTO_RELOAD`).
///
/// ## Values
///
/// Every value is a ``StoredValue/string(_:)`` holding the variable's text; the value layer
/// reads it leniently (`true`/`yes`/`1` as `Bool`, decimal text as numbers, ISO 8601 text as
/// `Date`, JSON text as arrays, dictionaries and `Codable` values). A variable that is set but
/// empty (`APP_AUTO_RELOAD=`) counts as unset, as many shells and tools treat it. A variable
/// whose bytes are not valid UTF-8 is never read with U+FFFD in their place: it holds no value,
/// ``keys()`` leaves it out, and reading its key reports ``StorageError/Code/dataCorrupted``
/// naming the variable.
///
/// ## Keys
///
/// ``keys()`` lists one key per prefixed variable, named by reading the variable back as lower
/// camel case (`APP_EDITOR_FONT_SIZE` → `editorFontSize`): the store knows no key names of
/// its own. Look values up by the key you declared with ``value(forKey:)``, which is exact.
///
/// The environment is read once, when the store is created; later changes to the process's
/// environment are not seen, so ``changes()`` never delivers anything.
///
/// Thread-safety: immutable after creation; every member may be used from any thread or task.
public final class EnvironmentStore: OriginDescribingStore {
    /// The text in front of every variable name, ending with `_` (empty for no prefix).
    public let prefix: String

    /// The variables with the prefix, by full name; empty values left out.
    private let variables: [String: String]
    /// The names of variables with the prefix whose value is not valid UTF-8: they hold no
    /// value, and reading their key reports the problem.
    private let undecodable: Set<String>
    private let broadcaster = ChangeBroadcaster()
    /// Each key's variable name (`nil`: the key has none), computed on its first read. Bounded
    /// by ``variableNameCacheLimit`` keys, so reading arbitrary keys cannot grow it forever.
    private let variableNames = Lock<[String: String?]>([:])
    /// How many keys' variable names are kept.
    private static let variableNameCacheLimit = 4_096

    /// Creates a store of the variables in `environment` whose names start with `prefix`.
    ///
    /// - Parameters:
    ///   - prefix: The tool's prefix, such as `DAYBOOK`; a `_` is added unless it already ends
    ///     with one. The prefix is matched exactly, case-sensitively. An empty prefix takes
    ///     every variable.
    ///   - environment: Variables by name. By default the process's environment, read now
    ///     from its bytes (the C `environ` array): a variable whose value is not valid UTF-8
    ///     holds no value, and reading its key reports ``StorageError/Code/dataCorrupted``
    ///     naming the variable, rather than a text with U+FFFD in place of the bytes.
    public convenience init(prefix: String, environment: [String: String]? = nil) {
        if let environment {
            self.init(prefix: prefix, decoded: environment, undecodable: [])
        } else {
            self.init(prefix: prefix, rawEnvironment: Self.processEnvironment())
        }
    }

    /// Creates a store from `NAME=VALUE` byte strings, as the C `environ` array holds them.
    /// Entries without `=` and names that are not valid UTF-8 are left out; values that are
    /// not valid UTF-8 are remembered as undecodable.
    package convenience init(prefix: String, rawEnvironment: [[UInt8]]) {
        var decoded: [String: String] = [:]
        var undecodable: Set<String> = []
        for entry in rawEnvironment {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")),
                let name = Self.utf8Text(entry[..<equals])
            else { continue }
            if let value = Self.utf8Text(entry[(equals + 1)...]) {
                decoded[name] = value
            } else {
                undecodable.insert(name)
            }
        }
        self.init(prefix: prefix, decoded: decoded, undecodable: undecodable)
    }

    private init(prefix: String, decoded environment: [String: String], undecodable: Set<String>) {
        let normalized = prefix.isEmpty || prefix.hasSuffix("_") ? prefix : prefix + "_"
        func hasPrefix(_ name: String) -> Bool { name.hasPrefix(normalized) && name.count > normalized.count }
        self.prefix = normalized
        self.variables = environment.filter { name, value in hasPrefix(name) && !value.isEmpty }
        self.undecodable = undecodable.filter(hasPrefix)
    }

    /// `bytes` as text when they are valid UTF-8, else `nil` (never U+FFFD in place of them).
    private static func utf8Text(_ bytes: ArraySlice<UInt8>) -> String? {
        let valid = bytes.withUnsafeBytes { StoredValueJSON.Parser.isValidUTF8($0) }
        return valid ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The process's environment as bytes, from `environ`.
    private static func processEnvironment() -> [[UInt8]] {
        var entries: [[UInt8]] = []
        guard var pointer = environmentPointer() else { return [] }
        while let entry = pointer.pointee {
            entries.append(Array(UnsafeRawBufferPointer(start: entry, count: strlen(entry))))
            pointer += 1
        }
        return entries
    }

    /// The name of the variable that holds `key`, such as `APP_AUTO_RELOAD` for `autoReload`;
    /// `nil` for keys with characters no variable name can hold.
    ///
    /// Each key's name is computed once and kept (thread-safe, under a lock); the variables
    /// themselves are the ones read when the store was created.
    public func variableName(forKey key: String) -> String? {
        if let cached = variableNames.withLock({ $0[key] }) { return cached }
        let name = KeyWords.screamingSnakeCase(key).map { prefix + $0 }
        variableNames.withLock { names in
            if names.count < Self.variableNameCacheLimit { names[key] = .some(name) }
        }
        return name
    }

    /// The text of the key's variable as a ``StoredValue/string(_:)``, or `nil` when the
    /// variable is unset, empty, or the key has no variable.
    ///
    /// A variable whose value is not valid UTF-8 holds no value: reading its key returns `nil`
    /// and reports ``StorageError/Code/dataCorrupted`` naming the variable to
    /// ``StorageErrorReporter``.
    public func value(forKey key: String) -> StoredValue? {
        guard let name = variableName(forKey: key) else { return nil }
        guard let text = variables[name] else {
            if undecodable.contains(name) {
                StorageErrorReporter.report(
                    StorageError(
                        .dataCorrupted, key: key, path: "environment variable \(name)",
                        message: "the value is not valid UTF-8"
                    ))
            }
            return nil
        }
        return .string(text)
    }

    /// The value and a revision that never changes: the environment is fixed at creation.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        (value(forKey: key), 0)
    }

    /// Always throws: the environment is read-only.
    ///
    /// - Throws: ``StorageError/Code/readOnly`` naming the key and its variable.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        throw readOnlyError(forKey: key)
    }

    /// Runs `body` on the current value; throws when `body` changes it, since nothing can be
    /// written.
    ///
    /// - Returns: What `body` returns, when it leaves the value as it was.
    /// - Throws: What `body` throws, or ``StorageError/Code/readOnly`` naming the variable when
    ///   `body` changes the value.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try readOnlyUpdate(value(forKey: key), body, refusal: readOnlyError(forKey: key))
    }

    /// One key per variable with the prefix, read back as lower camel case
    /// (`APP_EDITOR_FONT_SIZE` → `editorFontSize`), for the variables that key reads: a
    /// variable no key maps back to (`APP_lower`, `APP_TWO__PARTS`, `APP_DASH-ED`), or whose
    /// value is not valid UTF-8, is not listed, so every listed key has a value.
    public func keys() -> [String] {
        variables.keys.compactMap { name in
            guard let key = KeyWords.camelCase(fromSnakeCase: String(name.dropFirst(prefix.count))),
                variableName(forKey: key) == name
            else { return nil }
            return key
        }
    }

    /// A stream that never delivers a change: the environment is fixed at creation. It ends
    /// when its consumer stops iterating.
    public func changes() -> AsyncStream<StoredChange> {
        broadcaster.subscribe()
    }

    /// `environment`.
    public var location: String? { "environment" }

    /// `environment variable APP_AUTO_RELOAD` when the key's variable is set, else `nil`.
    public func origin(forKey key: String) -> String? {
        guard value(forKey: key) != nil, let name = variableName(forKey: key) else { return nil }
        return "environment variable \(name)"
    }

    private func readOnlyError(forKey key: String) -> StorageError {
        let variable = variableName(forKey: key).map { "environment variable \($0)" } ?? "the environment"
        return StorageError(
            .readOnly, key: key, path: variable,
            message: "settings from the environment are read-only; change or unset the variable instead"
        )
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
