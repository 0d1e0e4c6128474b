/// A value type whose stored form decodes back to exactly the value that was encoded: the same
/// elements, the same scalars, nothing normalised, dropped or recomputed.
///
/// The wrapper keeps the result of an in-place change of such a value (`settings.tags.insert(t)`)
/// with the array it wrote, and starts the next in-place change from it instead of decoding
/// that array again. A Codable struct is not one: its encoding may leave out fields or change
/// them, so it is always decoded.
package protocol ExactStoredForm {}

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
