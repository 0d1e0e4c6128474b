public import Foundation

// MARK: - Data

extension Data: StoredValueConvertible {
    /// Reads `.data`, or Base64 text (how JSON files hold bytes): white space and line breaks
    /// anywhere are ignored (as `base64` wraps its output).
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for other kinds and for text that is not
    ///   Base64.
    public init(storedValue: StoredValue) throws {
        switch storedValue {
        case .data(let value): self = value
        case .string(let text):
            guard let value = Self.lenientBase64(text) else {
                throw StorageError.typeMismatch(Data.self, found: storedValue)
            }
            self = value
        default: throw StorageError.typeMismatch(Data.self, found: storedValue)
        }
    }

    /// `.data(self)`.
    public func storedValue() -> StoredValue { .data(self) }

    /// The bytes of padded Base64 text, ignoring ASCII white space and line breaks; `nil` for
    /// anything else. (The URL-safe alphabet and missing padding are refused: with them, plain
    /// words such as `sk-live-42` would read as bytes.)
    private static func lenientBase64(_ text: String) -> Data? {
        if let exact = Data(base64Encoded: text) { return exact }
        let bytes = text.utf8.filter { ![0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains($0) }
        return Data(base64Encoded: Data(bytes))
    }
}

// MARK: - Date

extension Date: StoredValueConvertible {
    /// Reads `.date`, or ISO 8601 text with or without fractional seconds (how JSON files and
    /// UserDefaults on Linux hold dates; the text this package writes gives back the same date
    /// to the bit).
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for other kinds and for text that is not
    ///   ISO 8601.
    public init(storedValue: StoredValue) throws {
        switch storedValue {
        case .date(let value): self = value
        case .string(let text):
            guard let value = DateText.date(from: text) else {
                throw StorageError.typeMismatch(Date.self, found: storedValue)
            }
            self = value
        default: throw StorageError.typeMismatch(Date.self, found: storedValue)
        }
    }

    /// `.date(self)`.
    public func storedValue() -> StoredValue { .date(self) }
}

// MARK: - URL

extension URL: StoredValueConvertible {
    /// Reads the URL's text: `absoluteString` as written, relative URLs with their base
    /// resolved away.
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for other kinds and for text that is not a
    ///   URL.
    public init(storedValue: StoredValue) throws {
        guard case .string(let text) = storedValue, let url = URL(string: text) else {
            throw StorageError.typeMismatch(URL.self, found: storedValue)
        }
        self = url
    }

    /// `.string` holding `absoluteString` (query and fragment included).
    public func storedValue() -> StoredValue {
        .string(absoluteString)
    }
}

// MARK: - UUID

extension UUID: StoredValueConvertible {
    /// Reads the UUID's text in any case.
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for other kinds and for text that is not a
    ///   UUID.
    public init(storedValue: StoredValue) throws {
        guard case .string(let text) = storedValue,
            let value = UUID(uuidString: text.trimmingWhitespace)
        else {
            throw StorageError.typeMismatch(UUID.self, found: storedValue)
        }
        self = value
    }

    /// `.string` holding `uuidString` (upper case).
    public func storedValue() -> StoredValue { .string(uuidString) }
}

// MARK: - Decimal

extension Decimal: StoredValueConvertible {
    /// Reads the decimal text (exact), or an `.int` or `.double` (converted).
    ///
    /// The text is a plain decimal number: an optional sign, digits with an optional `.` and
    /// fraction, and an optional exponent (`-12.5`, `1e-3`). Text with anything else (`12abc`,
    /// `1,5`, `nan`) is refused rather than read up to the first bad character.
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for other kinds and unparsable text.
    public init(storedValue: StoredValue) throws {
        switch storedValue {
        case .string(let text):
            let trimmed = text.trimmingWhitespace
            guard isPlainDecimalText(trimmed),
                let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN
            else {
                throw StorageError.typeMismatch(Decimal.self, found: storedValue)
            }
            self = value
        case .int(let value): self = Decimal(value)
        case .double(let value) where value.isFinite:
            let decimal = Decimal(value)
            guard !decimal.isNaN else {
                var error = StorageError.typeMismatch(Decimal.self, found: storedValue)
                error.message = "the number is beyond Decimal's range"
                throw error
            }
            self = decimal
        default: throw StorageError.typeMismatch(Decimal.self, found: storedValue)
        }
    }

    /// `.string` holding the exact decimal text (a `Double` would round it).
    ///
    /// - Throws: ``StorageError/Code/encodingFailed`` for `Decimal.nan`, which has no decimal
    ///   text to read back.
    public func storedValue() throws -> StoredValue {
        guard !isNaN else {
            throw StorageError(.encodingFailed, expectedType: "Decimal", message: "NaN has no decimal text")
        }
        return .string(description)
    }
}
