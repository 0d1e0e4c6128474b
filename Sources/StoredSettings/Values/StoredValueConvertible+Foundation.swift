import Foundation

// MARK: - Data

extension Data: StoredValueConvertible {
    /// Reads `.data`, or Base64 text (how JSON files hold bytes).
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for other kinds and for text that is not
    ///   Base64.
    public init(storedValue: StoredValue) throws {
        switch storedValue {
        case .data(let value): self = value
        case .string(let text):
            guard let value = Data(base64Encoded: text) else {
                throw StorageError.typeMismatch(Data.self, found: storedValue)
            }
            self = value
        default: throw StorageError.typeMismatch(Data.self, found: storedValue)
        }
    }

    /// `.data(self)`.
    public func storedValue() -> StoredValue { .data(self) }
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
              let value = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) else {
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
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard Self.isPlainDecimal(trimmed),
                  let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")) else {
                throw StorageError.typeMismatch(Decimal.self, found: storedValue)
            }
            self = value
        case .int(let value): self = Decimal(value)
        case .double(let value) where value.isFinite: self = Decimal(value)
        default: throw StorageError.typeMismatch(Decimal.self, found: storedValue)
        }
    }

    /// `.string` holding the exact decimal text (a `Double` would round it).
    public func storedValue() -> StoredValue { .string(description) }

    /// Whether `text` is `[+-]digits[.digits][(e|E)[+-]digits]`, with at least one digit
    /// before or after the point.
    private static func isPlainDecimal(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if let first = bytes.first, first == UInt8(ascii: "e") || first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
