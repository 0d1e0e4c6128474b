/// One parsed invocation of the `stored` command: what to do, on which target.
///
/// ``CommandParser`` builds it from the arguments without touching any file; ``StoredCLI``
/// carries it out.
package enum Command: Equatable, Sendable {
    /// Print the value of `key` as JSON, or the whole store when `key` is `nil`.
    case read(Target, key: String?)
    /// Store `value` under `key`.
    case write(Target, key: String, value: ValueArgument)
    /// Remove `key`, or every key when `key` is `nil`.
    case delete(Target, key: String?)
    /// Print every key, one per line.
    case keys(Target)
    /// Print the whole store as a JSON or property-list file.
    case export(Target, format: ExportFormat)
    /// Merge the keys of `file` (`-` for standard input) into the target.
    case `import`(Target, file: String)
    /// List the UserDefaults suites of this user.
    case domains
    /// Print the help of `verb`, or the overview when `nil`.
    case help(Verb?)
}

/// The command's verbs, spelled as on the command line.
package enum Verb: String, CaseIterable, Sendable {
    case read, write, delete, keys, export, `import`, domains, help
}

/// Where the settings are: a settings file or a UserDefaults suite.
package enum Target: Equatable, Sendable {
    /// A file whose path ends in `.json` or `.plist`, as the user spelled it.
    case file(String)
    /// A UserDefaults suite (`--domain NAME`).
    case domain(String)
    /// An etcd cluster and key prefix, `etcd://HOST:PORT[,HOST:PORT…]/PREFIX`, as spelled.
    case etcd(String)
}

/// The file format `export` prints.
package enum ExportFormat: String, Equatable, Sendable {
    /// JSON text, pretty-printed with sorted keys: the format of JSON settings files.
    case json
    /// An XML property list: the format of `.plist` settings files.
    case plist
}

/// The VALUE of `write` and the TYPE it is read as.
package struct ValueArgument: Equatable, Sendable {
    /// How the text is read.
    package var type: ValueType
    /// The text as given; `-` with ``ValueType/json`` means standard input.
    package var text: String

    package init(_ type: ValueType, _ text: String) {
        self.type = type
        self.text = text
    }

    /// Whether the value comes from standard input (`-json -`).
    package var readsStandardInput: Bool { type == .json && text == "-" }
}
