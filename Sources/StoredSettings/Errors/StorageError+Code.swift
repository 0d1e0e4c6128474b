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

        /// Two environment variables give the same setting (`APP_TOKEN` and `APP_TOKEN_FILE`), or
        /// one variable names two fields of a structured setting: the store uses neither.
        public static let ambiguousVariable = Code("ambiguousVariable")
        /// A command-line argument is malformed (`--set` without `key=value`, an option without
        /// its value).
        public static let invalidArgument = Code("invalidArgument")
        /// A key in a settings file, an environment variable with the tool's prefix or a
        /// command-line option that no declared setting uses: usually a misspelling. A warning
        /// unless the tool makes it an error.
        public static let unknownKey = Code("unknownKey")
        /// A settings file, or a folder a write goes through, can be written by other users.
        ///
        /// ``FileStore`` reports it for a group- or world-writable file, and throws it from a
        /// write (changing nothing) through a folder others could swap the file in; see
        /// <doc:ConfigurationFiles>.
        public static let insecurePermissions = Code("insecurePermissions")
        /// A `Migration` threw, or the migrations given to a `MigratingStore` are not a valid
        /// list (two share a version, a version below 1). Nothing was written.
        public static let migrationFailed = Code("migrationFailed")

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
