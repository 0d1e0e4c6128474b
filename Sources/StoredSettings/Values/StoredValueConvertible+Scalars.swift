import Foundation

// MARK: - Bool

extension Bool: StoredValueConvertible {
    /// Reads `.bool`, the integers 0 and 1, or the text `true`/`false`, `yes`/`no`, `on`/`off`,
    /// `1`/`0` in any case (surrounding white space and line breaks ignored).
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for any other value.
    public init(storedValue: StoredValue) throws {
        switch storedValue {
        case .bool(let value): self = value
        case .int(0): self = false
        case .int(1): self = true
        case .string(let text):
            guard let value = Bool(lenientText: text) else {
                throw StorageError.typeMismatch(Bool.self, found: storedValue)
            }
            self = value
        default: throw StorageError.typeMismatch(Bool.self, found: storedValue)
        }
    }

    /// `.bool(self)`.
    public func storedValue() -> StoredValue { .bool(self) }

    /// Parses the lenient Boolean words; `nil` for anything else.
    package init?(lenientText text: String) {
        switch text.trimmingWhitespace.lowercased() {
        case "true", "yes", "on", "1": self = true
        case "false", "no", "off", "0": self = false
        default: return nil
        }
    }
}

// MARK: - Integers

// Constrained to `Codable` as well, so that for the standard integers (which are Codable) this
// extension is more specific than the `Codable` one and is the one chosen.

extension StoredValueConvertible where Self: FixedWidthInteger & Codable {
    /// Reads `.int` in range, a `.double` holding a whole number in range, or integer text
    /// (surrounding white space ignored). A JSON number a `Double` would round reaches it as
    /// text, judged by its digits.
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for other kinds, for numbers outside this
    ///   type's range (`out of the range of Int8 (-128...127)`, never wrapped or clamped), for
    ///   fractions (`not a whole number`), and for decimal text such as `4.0` or `1e3`.
    public init(storedValue: StoredValue) throws {
        switch storedValue {
        case .int(let value):
            guard let exact = Self(exactly: value) else { throw Self.outOfRange(storedValue) }
            self = exact
        case .double(let value):
            guard !value.isNaN else { throw StorageError.typeMismatch(Self.self, found: storedValue) }
            // `Double(Self.max)` may round up (2^63 for Int64), which `Self(exactly:)` refuses below.
            if value < Double(Self.min) || value > Double(Self.max) { throw Self.outOfRange(storedValue) }
            if value.rounded(.towardZero) != value { throw Self.notWhole(storedValue) }
            guard let exact = Self(exactly: value) else { throw Self.outOfRange(storedValue) }
            self = exact
        case .string(let text):
            let trimmed = text.trimmingWhitespace
            if let exact = Self(trimmed, radix: 10) {
                self = exact
                return
            }
            // Number text that is not this type's integer text: out of range, a fraction, or
            // (`4.0`, `1e3`) a whole number written as decimal text; anything else is not a number.
            guard isPlainDecimalText(trimmed), let decimal = ExactDecimal(trimmed) else {
                throw StorageError.typeMismatch(Self.self, found: storedValue)
            }
            switch decimal.integer(as: Self.self) {
            case .outOfRange: throw Self.outOfRange(storedValue)
            case .notWhole: throw Self.notWhole(storedValue)
            case .value: throw StorageError.typeMismatch(Self.self, found: storedValue)
            }
        default:
            throw StorageError.typeMismatch(Self.self, found: storedValue)
        }
    }

    /// `.int`, or for `UInt64`/`UInt` values above `Int64.max` their decimal `.string`.
    public func storedValue() -> StoredValue {
        if let value = Int64(exactly: self) { return .int(value) }
        return .string(String(self))
    }

    private static func outOfRange(_ value: StoredValue) -> StorageError {
        var error = StorageError.typeMismatch(Self.self, found: value)
        error.message = "out of the range of \(typeName(Self.self)) (\(Self.min)...\(Self.max))"
        return error
    }

    private static func notWhole(_ value: StoredValue) -> StorageError {
        var error = StorageError.typeMismatch(Self.self, found: value)
        error.message = "not a whole number"
        return error
    }
}

extension Int: StoredValueConvertible {}
extension Int8: StoredValueConvertible {}
extension Int16: StoredValueConvertible {}
extension Int32: StoredValueConvertible {}
extension Int64: StoredValueConvertible {}
extension UInt: StoredValueConvertible {}
extension UInt8: StoredValueConvertible {}
extension UInt16: StoredValueConvertible {}
extension UInt32: StoredValueConvertible {}
extension UInt64: StoredValueConvertible {}

// MARK: - Floating point

extension Double: StoredValueConvertible {
    /// Reads `.double`, `.int` (exactly when representable, else the nearest `Double`), or
    /// decimal text (`-12.5`, `1e-3`), including `nan`, `inf` and `infinity` with an optional
    /// sign in any case; surrounding white space and line breaks are ignored.
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for other kinds, for text that is not a
    ///   decimal number (hexadecimal `0x10`, `1,5`, `nan(0x7)`), and for finite text beyond
    ///   `Double`'s range (`1e400`, never turned into infinity).
    public init(storedValue: StoredValue) throws {
        switch storedValue {
        case .double(let value): self = value
        case .int(let value): self = Double(value)
        case .string(let text):
            let trimmed = text.trimmingWhitespace
            if isPlainDecimalText(trimmed) {
                guard let value = Double(trimmed) else {
                    throw StorageError.typeMismatch(Double.self, found: storedValue)
                }
                guard value.isFinite else {
                    var error = StorageError.typeMismatch(Double.self, found: storedValue)
                    error.message = "the number is beyond Double's range"
                    throw error
                }
                self = value
            } else {
                let word = trimmed.lowercased()
                let unsigned = word.hasPrefix("-") || word.hasPrefix("+") ? word.dropFirst() : Substring(word)
                switch unsigned {
                case "inf", "infinity": self = word.hasPrefix("-") ? -.infinity : .infinity
                case "nan": self = .nan
                default: throw StorageError.typeMismatch(Double.self, found: storedValue)
                }
            }
        default: throw StorageError.typeMismatch(Double.self, found: storedValue)
        }
    }

    /// `.double(self)`.
    public func storedValue() -> StoredValue { .double(self) }
}

extension Float: StoredValueConvertible {
    /// Reads what `Double` reads, rounded to the nearest `Float`. A `Float` written by this
    /// package reads back to the bit.
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for other kinds, and for finite numbers
    ///   beyond `Float`'s range (never turned into infinity).
    public init(storedValue: StoredValue) throws {
        let double = try Double(storedValue: storedValue)
        let float = Float(double)
        if double.isFinite && !float.isFinite {
            var error = StorageError.typeMismatch(Float.self, found: storedValue)
            error.message = "the number is beyond Float's range"
            throw error
        }
        self = float
    }

    /// `.double` holding this value exactly.
    public func storedValue() -> StoredValue { .double(Double(self)) }
}

// MARK: - String

extension String: StoredValueConvertible {
    /// Reads `.string` only: a number or Boolean is not silently turned into text.
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for any other kind.
    public init(storedValue: StoredValue) throws {
        guard case .string(let value) = storedValue else {
            throw StorageError.typeMismatch(String.self, found: storedValue)
        }
        self = value
    }

    /// `.string(self)`.
    public func storedValue() -> StoredValue { .string(self) }
}

// MARK: - Helpers

/// Whether `text` is `[+-]digits[.digits][(e|E)[+-]digits]` in ASCII, with at least one digit
/// before or after the point: the decimal numbers lenient text accepts.
package func isPlainDecimalText(_ text: String) -> Bool {
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
