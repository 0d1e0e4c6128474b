/// A value type whose stored form decodes back to exactly the encoded value, so the wrapper
/// starts an in-place change (`settings.tags.insert(t)`) from the value it last wrote instead of
/// decoding it again. Codable structs are not: their encoding may drop or change fields.
protocol ExactStoredForm {}

extension String: ExactStoredForm {}
extension Bool: ExactStoredForm {}
extension Int: ExactStoredForm {}
extension Int8: ExactStoredForm {}
extension Int16: ExactStoredForm {}
extension Int32: ExactStoredForm {}
extension Int64: ExactStoredForm {}
extension UInt8: ExactStoredForm {}
extension UInt16: ExactStoredForm {}
extension UInt32: ExactStoredForm {}
extension Array: ExactStoredForm where Element: ExactStoredForm {}
extension Set: ExactStoredForm where Element: ExactStoredForm {}
extension Optional: ExactStoredForm where Wrapped: ExactStoredForm {}
