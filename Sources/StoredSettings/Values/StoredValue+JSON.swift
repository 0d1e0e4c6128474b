public import Foundation

extension StoredValue {
    /// The value's JSON text, as a JSON settings file holds it: objects with sorted keys,
    /// doubles in their shortest exact form, dates as ISO 8601 text, data as Base64 text.
    ///
    /// The text form of a value for a backend whose medium holds text (etcd keeps each value
    /// this way); ``init(jsonData:)`` reads it back.
    ///
    /// - Parameter pretty: Indent with two spaces and end with a newline; otherwise one line.
    /// - Throws: ``StorageError/Code/encodingFailed`` for NaN, infinities and dates outside the
    ///   years ISO 8601 text holds; ``StorageError/Code/nestingTooDeep`` beyond 64 levels.
    public func jsonData(pretty: Bool = true) throws -> Data {
        try StoredValueJSON.data(from: self, pretty: pretty)
    }

    /// Reads JSON text (UTF-8) as a value: whole numbers that fit `Int64` become `int`, other
    /// numbers `double`, strings stay strings (dates and data are read from text by the value
    /// layer).
    ///
    /// - Throws: ``StorageError/Code/dataCorrupted`` with the line and column for text that is
    ///   not JSON or holds `null`; ``StorageError/Code/nestingTooDeep`` beyond 64 levels.
    public init(jsonData: Data) throws {
        self = try StoredValueJSON.parse(jsonData)
    }
}
