import Foundation
public import StoredSettings

/// A read-only store of the environment variables that start with a prefix: the layer through
/// which CI jobs and shells override a tool's settings.
///
/// ```swift
/// let environment = EnvironmentStore(prefix: "DAYBOOK")
/// // DAYBOOK_AUTO_RELOAD=yes daybook   →   environment.value(forKey: "autoReload") == .string("yes")
/// ```
///
/// - A key's variable is the prefix, `_`, and the key's words in capitals (`editor.fontSize` →
///   `APP_EDITOR_FONT_SIZE`, `httpURL` → `APP_HTTP_URL`); a key with other characters than ASCII
///   letters, digits and `.-_/: ` has none.
/// - Every value is a `StoredValue/string(_:)` the value layer reads leniently; lists read
///   comma-separated text (`\,` a comma in an item) or JSON. A set but empty variable counts as
///   unset unless ``emptyValues`` is ``EmptyValues/empty``. A value that is not valid UTF-8
///   holds nothing, and reading its key reports `StorageError/Code/dataCorrupted`.
/// - `NAME_FILE=/path` gives `NAME`'s value from a regular file of at most
///   64 KiB (Docker and Kubernetes secrets), read on first use; setting both
///   is `StorageError/Code/ambiguousVariable`.
/// - ``keys()`` reads each prefixed variable back as lower camel case.
///
/// The environment is read once, at creation, so ``changes()`` never delivers anything. The
/// rules in full, and declared stores (`declaredBy:`), are in <doc:CommandLineTools>.
///
/// Thread-safety: immutable after creation; every member may be used from any thread or task.
public final class EnvironmentStore: OriginDescribingStore {
    /// The text in front of every variable name, ending with `_` (empty for no prefix).
    public let prefix: String
    /// What a set but empty variable means: unset (the default) or the empty text.
    public let emptyValues: EmptyValues
    /// The variables with the prefix, by full name; empty values left out unless
    /// ``emptyValues`` is ``EmptyValues/empty``.
    let variables: [String: String]
    /// The names `NAME` for which a `NAME_FILE` variable is set: the only ones whose secret
    /// file is ever looked at.
    private let companionTargets: Set<String>
    /// What a tool's declarations gave; `nil` without them.
    let declared: (any EnvironmentDeclaring)?
    /// The outcome of each secret file read so far, by the variable it stands for (`APP_TOKEN`
    /// for `APP_TOKEN_FILE`): filled at creation for declared keys, else on first read.
    private let secretFiles: Lock<[String: SecretFileOutcome]>
    /// The names of variables with the prefix whose value is not valid UTF-8: they hold no
    /// value, and reading their key reports the problem.
    let undecodable: Set<String>
    private let broadcaster = ChangeBroadcaster()
    /// Each key's variable name, value and origin, resolved on its first read (the
    /// environment never changes, so neither do they). Bounded by ``keyEntryLimit`` keys, so
    /// reading arbitrary keys cannot grow it forever.
    let keyEntries = Lock<[String: KeyEntry]>([:])
    /// How many keys' entries are kept.
    static let keyEntryLimit = 4_096

    /// Creates a store of the variables in `environment` whose names start with `prefix`.
    ///
    /// - Parameters:
    ///   - prefix: The tool's prefix, such as `DAYBOOK`; a `_` is added unless it already ends
    ///     with one. The prefix is matched exactly, case-sensitively. An empty prefix takes
    ///     every variable.
    ///   - environment: Variables by name. By default the process's environment, read now
    ///     from its bytes (the C `environ` array): a variable whose value is not valid UTF-8
    ///     holds no value, and reading its key reports `StorageError/Code/dataCorrupted`
    ///     naming the variable, rather than a text with U+FFFD in place of the bytes.
    ///   - emptyValues: What a set but empty variable means: ``EmptyValues/unset`` (the
    ///     default) or ``EmptyValues/empty``.
    public convenience init(
        prefix: String, environment: [String: String]? = nil, emptyValues: EmptyValues = .unset
    ) {
        self.init(prefix: prefix, environment: environment, emptyValues: emptyValues, declaring: nil)
    }

    /// Creates a store whose `declaring` works out, from the prefixed variables, what a tool's
    /// declarations add: it gets the prefix (ending with `_`, or empty), the variables that
    /// hold a value, every prefixed name (empty and undecodable ones too) and the undecodable
    /// ones.
    convenience init(
        prefix: String, environment: [String: String]?, emptyValues: EmptyValues = .unset,
        declaring: Declaring?
    ) {
        if let environment {
            self.init(
                prefix: prefix, decoded: environment, undecodable: [], emptyValues: emptyValues, declaring: declaring)
        } else {
            self.init(
                prefix: prefix, rawEnvironment: Self.processEnvironment(withPrefix: prefix), emptyValues: emptyValues,
                declaring: declaring)
        }
    }

    /// What works out a tool's declarations from the prefix, the set variables, every prefixed
    /// name and the undecodable names.
    typealias Declaring = (
        _ prefix: String, _ variables: [String: String], _ names: Set<String>, _ undecodable: Set<String>
    ) -> any EnvironmentDeclaring

    /// Creates a store from `NAME=VALUE` byte strings, as the C `environ` array holds them.
    package convenience init(prefix: String, rawEnvironment: [[UInt8]], emptyValues: EmptyValues = .unset) {
        self.init(prefix: prefix, rawEnvironment: rawEnvironment, emptyValues: emptyValues, declaring: nil)
    }

    /// Creates a store from `NAME=VALUE` byte strings, as the C `environ` array holds them.
    /// Entries without `=` are left out. Variables whose value is not valid UTF-8 are
    /// remembered as undecodable, as are names that are not valid UTF-8, under their spelling
    /// with U+FFFD (no key reads them; the unknown-variable check names them).
    convenience init(prefix: String, rawEnvironment: [[UInt8]], emptyValues: EmptyValues, declaring: Declaring?) {
        var decoded: [String: String] = [:]
        var undecodable: Set<String> = []
        for entry in rawEnvironment {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
            guard let name = Self.utf8Text(entry[..<equals]) else {
                undecodable.insert(String(decoding: entry[..<equals], as: UTF8.self))
                continue
            }
            if let value = Self.utf8Text(entry[(equals + 1)...]) {
                decoded[name] = value
            } else {
                undecodable.insert(name)
            }
        }
        self.init(
            prefix: prefix, decoded: decoded, undecodable: undecodable, emptyValues: emptyValues, declaring: declaring)
    }

    private init(
        prefix: String, decoded environment: [String: String], undecodable: Set<String>, emptyValues: EmptyValues,
        declaring: Declaring?
    ) {
        let normalized = prefix.isEmpty || prefix.hasSuffix("_") ? prefix : prefix + "_"
        func hasPrefix(_ name: String) -> Bool { name.hasPrefix(normalized) && name.count > normalized.count }
        let prefixed = environment.filter { name, _ in hasPrefix(name) }
        let variables = emptyValues == .empty ? prefixed : prefixed.filter { !$0.value.isEmpty }
        let undecodable = undecodable.filter(hasPrefix)
        self.prefix = normalized
        self.emptyValues = emptyValues
        self.variables = variables
        self.undecodable = undecodable
        self.companionTargets = Set(
            variables.compactMap { name, path in
                name.hasSuffix("_FILE") && !path.isEmpty ? String(name.dropLast("_FILE".count)) : nil
            } + undecodable.filter { $0.hasSuffix("_FILE") }.map { String($0.dropLast("_FILE".count)) })
        let declared = declaring?(normalized, variables, Set(prefixed.keys).union(undecodable), undecodable)
        self.declared = declared
        self.secretFiles = Lock(declared?.secretFiles ?? [:])
    }

    /// The name of the variable that holds `key`, such as `APP_AUTO_RELOAD` for `autoReload`;
    /// `nil` for keys with characters no variable name can hold.
    ///
    /// Each key's name is computed once and kept (thread-safe, under a lock); the variables
    /// themselves are the ones read when the store was created.
    package func variableName(forKey key: String) -> String? {
        entry(forKey: key).variable
    }

    /// The text of the key's variable, or of its secret file (`NAME_FILE`), as a
    /// `StoredValue/string(_:)`; `nil` when neither is set (an empty one counts as unset
    /// unless ``emptyValues`` is ``EmptyValues/empty``), when both are, or when the key has no
    /// variable.
    ///
    /// A variable whose value is not valid UTF-8 holds no value: reading its key returns `nil`
    /// and reports `StorageError/Code/dataCorrupted` naming the variable to
    /// `StorageErrorReporter`. A `NAME_FILE` companion that is not valid UTF-8, or whose
    /// secret file cannot be read (or that conflicts with the variable), leaves the key without
    /// a value and is reported there once, when it is first needed. Neither is reported for a
    /// declared key of a tool's store, which collects its problems.
    public func value(forKey key: String) -> StoredValue? {
        entryValue(forKey: key)
    }

    /// The value of the variable `name` for `key` and where it comes from, in words.
    func resolved(name: String, key: String) -> (value: StoredValue, origin: String)? {
        switch secretFile(forVariable: name, key: key) {
        case .read(let text, let path, let fileVariable, _)?:
            if text.isEmpty, emptyValues == .unset { return nil }
            return (.string(text), Self.secretFileOrigin(path: path, variable: fileVariable))
        case .failed?:
            return nil
        case nil:
            if let text = variables[name] { return (.string(text), "environment variable \(name)") }
            // A declared key's problem is in the tool's store's errors instead.
            if undecodable.contains(name), !(declared?.ownVariables.contains(name) ?? false) {
                StorageErrorReporter.report(Self.notUTF8Error(key: key, variable: name))
            }
            return nil
        }
    }

    /// The outcome of the secret file standing for the variable `name`, read (and reported
    /// when it fails) on first use; `nil` when there is none.
    private func secretFile(forVariable name: String, key: String) -> SecretFileOutcome? {
        // Most environments have no `NAME_FILE` variable: skip hashing `name` then.
        guard !companionTargets.isEmpty, companionTargets.contains(name) else { return nil }
        if let known = secretFiles.withLock({ $0[name] }) { return known }
        guard
            let outcome = Self.secretFileOutcome(
                forVariable: name, key: key, variables: variables, undecodable: undecodable,
                ownVariables: declared?.ownVariables ?? [])
        else { return nil }
        let (kept, isNew) = secretFiles.withLock { files -> (SecretFileOutcome, Bool) in
            if let earlier = files[name] { return (earlier, false) }
            files[name] = outcome
            return (outcome, true)
        }
        if isNew, case .failed(let error) = kept { StorageErrorReporter.report(error) }
        return kept
    }

    /// The value and a revision that never changes: the environment is fixed at creation.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        (value(forKey: key), 0)
    }

    /// Always throws: the environment is read-only.
    ///
    /// - Throws: `StorageError/Code/readOnly` naming the key and its variable.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        throw readOnlyError(forKey: key)
    }

    /// Runs `body` on the current value; throws when `body` changes it, since nothing can be
    /// written.
    ///
    /// - Returns: What `body` returns, when it leaves the value as it was.
    /// - Throws: What `body` throws, or `StorageError/Code/readOnly` naming the variable when
    ///   `body` changes the value.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try readOnlyUpdate(value(forKey: key), body, refusal: readOnlyError(forKey: key))
    }

    /// One key per variable with the prefix, read back as lower camel case
    /// (`APP_EDITOR_FONT_SIZE` → `editorFontSize`), for the variables that key reads: a
    /// variable no key maps back to (`APP_lower`, `APP_TWO__PARTS`, `APP_DASH-ED`), or whose
    /// value is not valid UTF-8, is not listed, so every listed key has a value.
    ///
    /// A secret file that was read is listed under its setting's key (`token` for
    /// `APP_TOKEN_FILE`), and its `NAME_FILE` variable is not; neither are the variables that
    /// serve declared settings otherwise. A file is read when its key is first asked for, so
    /// until then `APP_TOKEN_FILE` is listed as `tokenFile`.
    public func keys() -> [String] {
        let files = secretFiles.withLock { $0 }
        let serving = declared?.servingVariables ?? []
        func key(of name: String) -> String? {
            guard let key = KeyWords.camelCase(fromSnakeCase: String(name.dropFirst(prefix.count))),
                variableName(forKey: key) == name
            else { return nil }
            return key
        }
        var keys: [String] = []
        for name in variables.keys.sorted() {
            if serving.contains(name) { continue }
            if name.hasSuffix("_FILE"), files[String(name.dropLast("_FILE".count))] != nil { continue }
            if files[name] != nil { continue }
            if let key = key(of: name) { keys.append(key) }
        }
        for (name, outcome) in files.sorted(by: { $0.key < $1.key }) {
            guard case .read(let text, _, _, _) = outcome, !(text.isEmpty && emptyValues == .unset),
                let key = key(of: name)
            else { continue }
            keys.append(key)
        }
        return keys
    }

    /// A stream that never delivers a change: the environment is fixed at creation. It ends
    /// when its consumer stops iterating.
    public func changes() -> AsyncStream<StoredChange> {
        broadcaster.subscribe()
    }

    /// `environment`.
    public var location: String? { "environment" }

    /// `environment variable APP_AUTO_RELOAD` when the key's variable gives its value,
    /// `file /run/secrets/token (environment variable APP_TOKEN_FILE)` when a secret file
    /// does, else `nil`.
    public func origin(forKey key: String) -> String? {
        entry(forKey: key).origin
    }

    private func readOnlyError(forKey key: String) -> StorageError {
        let variable = variableName(forKey: key).map { "environment variable \($0)" } ?? "the environment"
        return StorageError(
            .readOnly, key: key, location: variable,
            message: "settings from the environment are read-only; change or unset the variable instead"
        )
    }
}

/// What a tool's declarations add to an ``EnvironmentStore``, worked out at creation
/// (StoredSettingsCommandLine): the variables that are not plain keys, and secret files read.
protocol EnvironmentDeclaring: Sendable {
    /// Each declared key's own variable: its problems are collected, never reported on a read,
    /// and a `_FILE` ending keeps its plain meaning.
    var ownVariables: Set<String> { get }
    /// Variables that serve declared settings without being a key's own: left out of `keys()`.
    var servingVariables: Set<String> { get }
    /// The secret files of declared keys, read at creation, by the key's own variable.
    var secretFiles: [String: EnvironmentStore.SecretFileOutcome] { get }
}
