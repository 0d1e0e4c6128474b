/// An error reading or writing a setting, naming the key, the file and what went wrong.
///
/// Every failure of the package reaches the caller as a `StorageError`: thrown from the
/// throwing APIs (``Stored/load()``, ``Stored/save(_:)``, ``Storable/setValue(_:forKey:)``),
/// or passed to ``StorageErrorReporter`` from the non-throwing getter and setter of ``Stored``.
/// Match on ``code`` (`error.code == .typeMismatch`). The message never contains the stored
/// value itself, which may be a secret; <doc:SupportedTypes> shows the messages of values that
/// do not decode.
public struct StorageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added in any release; switch with a
    /// `default` case.
    public var code: Code
    /// The key of the setting, when the failure concerns one.
    public var key: String?
    /// Where the setting is kept, when there is one place to name: a file's path, a
    /// UserDefaults domain, `memory`, `environment variable APP_PORT`, an etcd endpoint (a
    /// store's ``Storable/location``).
    public var location: String?
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
    ///   - location: Where the setting is kept (``location``), if anywhere to name.
    ///   - expectedType: The Swift type expected, for decoding failures.
    ///   - foundKind: The kind of stored value found.
    ///   - codingPath: The path inside a structured value.
    ///   - message: More detail, without stored values (they may be secrets).
    public init(
        _ code: Code,
        key: String? = nil,
        location: String? = nil,
        expectedType: String? = nil,
        foundKind: String? = nil,
        codingPath: [String] = [],
        message: String? = nil
    ) {
        self.code = code
        self.key = key
        self.location = location
        self.expectedType = expectedType
        self.foundKind = foundKind
        self.codingPath = codingPath
        self.message = message
    }

    /// One sentence naming the setting, the place inside a structured value, the file or
    /// domain, and what is wrong, never the stored value:
    /// `Setting 'launchCount' in /path/settings.json: expected Int, found string.`
    ///
    /// Always one line: control characters are written as escapes such as `\n` and `\u{1B}`.
    public var description: String {
        Self.escapingControlCharacters(sentence)
    }

    private var sentence: String {
        let at = codingPath.isEmpty ? "" : " at '\(codingPath.joined(separator: "."))'"
        let subject: String
        if let key {
            subject = "Setting '\(key)'" + at + (location.map { " in \($0)" } ?? "")
        } else if let location {
            subject = location + at
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
            parts.append("expected \(sugaredTypeName(expectedType))" + (foundKind.map { ", found \($0)" } ?? ""))
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

    /// Returns a copy with `key` and `location` filled in where they are still `nil`: how a
    /// store names itself in an error a helper (an encoder, ``UpdateScope``) raised without them.
    public func adding(key: String? = nil, location: String? = nil) -> StorageError {
        var copy = self
        if copy.key == nil { copy.key = key }
        if copy.location == nil { copy.location = location }
        return copy
    }

    // MARK: - Renamed

    /// The former name of ``location``, which holds more than file paths.
    @available(*, deprecated, renamed: "location")
    public var path: String? {
        get { location }
        set { location = newValue }
    }
}
