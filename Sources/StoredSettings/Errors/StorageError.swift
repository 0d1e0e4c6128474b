/// An error reading or writing a setting, naming the key, the file and what went wrong.
///
/// Every failure of the package reaches the caller as a `StorageError`: thrown from the
/// throwing APIs (``Stored/load()``, ``Stored/save(_:)``, ``Storable/setValue(_:forKey:)``),
/// or passed to ``StorageErrorReporter`` from the non-throwing getter and setter of ``Stored``.
///
/// ```swift
/// do {
///     let count = try $launchCount.load()
///     print(count)
/// } catch let error as StorageError where error.code == .typeMismatch {
///     print(error)   // Setting 'launchCount' in /Users/ada/.config/tool/settings.json: expected Int, found string.
/// }
/// ```
///
/// The message never contains the stored value itself, which may be a secret.
public struct StorageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added in any release; switch with a
    /// `default` case.
    public var code: Code
    /// The key of the setting, when the failure concerns one.
    public var key: String?
    /// The file or the UserDefaults domain involved, when there is one.
    public var path: String?
    /// The Swift type that was expected (`Int`, `Profile`), for decoding failures.
    public var expectedType: String?
    /// The kind of stored value found instead (`string`, `dictionary`; see ``StoredValue/kind``).
    public var foundKind: String?
    /// The path inside a structured value, as coding-key names and array indices
    /// (`["address", "0", "street"]`), for failures below the top level.
    public var codingPath: [String]
    /// More detail in words: a parser's message with line and column, or an `errno` text.
    public var message: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - key: The key of the setting involved, if any.
    ///   - path: The file or domain involved, if any.
    ///   - expectedType: The Swift type expected, for decoding failures.
    ///   - foundKind: The kind of stored value found.
    ///   - codingPath: The path inside a structured value.
    ///   - message: More detail, without stored values (they may be secrets).
    public init(
        _ code: Code,
        key: String? = nil,
        path: String? = nil,
        expectedType: String? = nil,
        foundKind: String? = nil,
        codingPath: [String] = [],
        message: String? = nil
    ) {
        self.code = code
        self.key = key
        self.path = path
        self.expectedType = expectedType
        self.foundKind = foundKind
        self.codingPath = codingPath
        self.message = message
    }

    /// One sentence naming the setting, the place inside a structured value, the file or
    /// domain, and what is wrong; never the stored value itself:
    ///
    /// - `Setting 'launchCount' in /path/settings.json: expected Int, found string.`
    /// - `Setting 'profile' at 'address.zip' in memory: expected String, found nothing: the field is missing.`
    /// - `/path/settings.json: the data is corrupted.` (no key)
    /// - `Setting at 'tags.1': nil cannot be stored inside an array.` (no key, no path)
    ///
    /// The description is always one line: control characters in a path, a coding-path
    /// component or a message (a file named with a line break, a parser's multi-line text)
    /// are written as escapes such as `\n` and `\u{1B}`, so a log line or a terminal shows
    /// the sentence and nothing else.
    public var description: String {
        Self.escapingControlCharacters(sentence)
    }

    private var sentence: String {
        let at = codingPath.isEmpty ? "" : " at '\(codingPath.joined(separator: "."))'"
        let subject: String
        if let key {
            subject = "Setting '\(key)'" + at + (path.map { " in \($0)" } ?? "")
        } else if let path {
            subject = path + at
        } else {
            subject = at.isEmpty ? "Settings" : "Setting" + at
        }
        return "\(subject): \(detail)."
    }

    /// What went wrong, without the subject: `expected Int, found string`, then the message;
    /// the code's summary when there is nothing more specific.
    package var detail: String {
        var parts: [String] = []
        if let expectedType {
            parts.append("expected \(expectedType)" + (foundKind.map { ", found \($0)" } ?? ""))
        } else if let foundKind {
            parts.append("found \(foundKind)")
        }
        if let message { parts.append(message) }
        if parts.isEmpty { parts.append(code.summary) }
        return parts.joined(separator: ": ")
    }

    /// `text` with every control character (C0, DEL, C1, and the Unicode line and paragraph
    /// separators) replaced by an escape: `\n`, `\r`, `\t`, else `\u{XX}`.
    package static func escapingControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// Returns a copy with `key` and `path` filled in where they are still `nil`.
    package func adding(key: String? = nil, path: String? = nil) -> StorageError {
        var copy = self
        if copy.key == nil { copy.key = key }
        if copy.path == nil { copy.path = path }
        return copy
    }
}

extension StorageError {
    /// The kind of a ``StorageError``: an extensible set of named codes.
    ///
    /// Compare with `==` or match in a `switch` with a `default` case:
    /// `if error.code == .typeMismatch { … }`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, such as `typeMismatch`.
        public let name: String

        /// Creates a code. Backends outside this package may define their own codes.
        public init(_ name: String) { self.name = name }

        /// The code's name.
        public var description: String { name }

        /// The stored value does not have the shape the Swift type needs.
        public static let typeMismatch = Code("typeMismatch")
        /// A file or value could not be parsed; the data is left untouched.
        public static let dataCorrupted = Code("dataCorrupted")
        /// A value could not be turned into a ``StoredValue`` for this backend (a NaN in JSON,
        /// `nil` inside an array).
        public static let encodingFailed = Code("encodingFailed")
        /// The store, or this layer of it, cannot be written (environment, command line).
        public static let readOnly = Code("readOnly")
        /// A system call failed; `message` carries the `errno` text.
        public static let io = Code("io")
        /// A key, suite name or application name is not allowed.
        public static let invalidKey = Code("invalidKey")
        /// A file or value is larger than the documented limit.
        public static let tooLarge = Code("tooLarge")
        /// A structured value is nested deeper than the documented limit.
        public static let nestingTooDeep = Code("nestingTooDeep")
        /// An attempt to read a key that holds no value, from an API that requires one.
        public static let notFound = Code("notFound")
        /// A write to a store from inside that store's own `update` body, refused because it
        /// would wait for itself or be overwritten by the update's result.
        public static let reentrantWrite = Code("reentrantWrite")
        /// The Swift type cannot be a setting's type: a class, whose edits through its
        /// reference would never reach the store.
        public static let unsupportedType = Code("unsupportedType")
        /// An argument or configuration value is malformed (`--set` without `key=value`, an
        /// option without its value, an etcd address of the wrong form).
        public static let invalidArgument = Code("invalidArgument")

        var summary: String {
            switch self {
            case .typeMismatch: "the stored value has the wrong type"
            case .dataCorrupted: "the data is corrupted"
            case .encodingFailed: "the value cannot be encoded"
            case .readOnly: "the store is read-only"
            case .io: "an I/O error occurred"
            case .invalidKey: "the key is not valid"
            case .tooLarge: "the data is too large"
            case .nestingTooDeep: "the value is nested too deeply"
            case .notFound: "no value is stored"
            case .reentrantWrite: "written from inside an update of the same store"
            case .unsupportedType: "the type cannot be a setting's type"
            default: "error \(name)"
            }
        }
    }
}
