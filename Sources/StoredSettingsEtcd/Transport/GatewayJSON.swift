import Foundation

/// The JSON text of a request body: dictionaries, arrays, strings, booleans and integers, as
/// the gateway's requests hold them.
///
/// Written here rather than with `JSONSerialization`, which on Linux writes a string one
/// character at a time: a 1.5 MB value (2 MB of base64) took it about 100 ms, a third of the
/// write (the benchmark's "EtcdStore write, 1.5 MB value"). A string without characters to
/// escape (base64 has none) is copied whole. Anything else goes through `JSONSerialization`.
enum GatewayJSON {
    /// The compact JSON text of `object`.
    ///
    /// - Throws: What `JSONSerialization` throws for a value it cannot write.
    static func data(_ object: Any) throws -> Data {
        var bytes: [UInt8] = []
        try write(object, into: &bytes)
        return Data(bytes)
    }

    private static func write(_ object: Any, into bytes: inout [UInt8]) throws {
        switch object {
        case let text as String: write(text, into: &bytes)
        case let flag as Bool: bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case let number as Int: bytes.append(contentsOf: String(number).utf8)
        case let number as Int64: bytes.append(contentsOf: String(number).utf8)
        case let dictionary as [String: Any]:
            bytes.append(UInt8(ascii: "{"))
            for (index, (key, value)) in dictionary.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                try write(value, into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        case let array as [Any]:
            bytes.append(UInt8(ascii: "["))
            for (index, value) in array.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(value, into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        default:
            bytes.append(contentsOf: try JSONSerialization.data(withJSONObject: object, options: .fragmentsAllowed))
        }
    }

    /// `text` quoted, with `"`, `\` and control characters escaped.
    private static func write(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        let utf8 = text.utf8
        if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: utf8)
        } else {
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
                case ..<0x20: bytes.append(contentsOf: "\\u00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16))".utf8)
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
