package import Foundation

extension PropertyListValue {
    /// The bytes of an XML property list holding `value`, written here because
    /// `PropertyListSerialization` writes `-0.0` as `0.0` and drops fractional seconds: only
    /// whole-second dates from 1900 on are `<date>`s, others ISO 8601 `<string>`s. Throws
    /// `encodingFailed` for a character XML 1.0 cannot carry (``xmlUnsupportedScalar(in:)``).
    package static func xmlData(from value: StoredValue) throws -> Data {
        var writer = XMLWriter()
        writer.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        writer.append(
            "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
        )
        writer.append("<plist version=\"1.0\">\n")
        try writer.write(value, indent: 0)
        writer.append("</plist>\n")
        return Data(writer.bytes)
    }

    private struct XMLWriter {
        var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(1024) }

        mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

        mutating func line(_ indent: Int, _ text: String) {
            bytes.append(contentsOf: repeatElement(0x09, count: indent))
            append(text)
            bytes.append(0x0A)
        }

        mutating func element(_ indent: Int, _ name: String, escaping text: String) throws {
            try PropertyListValue.checkXMLCharacters(
                text, inKey: name == "key", hint: "; use a binary property list or JSON")
            bytes.append(contentsOf: repeatElement(0x09, count: indent))
            append("<\(name)>")
            appendEscaped(text)
            append("</\(name)>\n")
        }

        mutating func write(_ value: StoredValue, indent: Int) throws {
            switch value {
            case .bool(let flag): line(indent, flag ? "<true/>" : "<false/>")
            case .int(let number): line(indent, "<integer>\(number)</integer>")
            case .double(let number): line(indent, "<real>\(Self.text(of: number))</real>")
            case .string(let text): try element(indent, "string", escaping: text)
            case .data(let data): line(indent, "<data>\(data.base64EncodedString())</data>")
            case .date(let date):
                guard let text = DateText.string(from: date) else {
                    throw StorageError(.encodingFailed, expectedType: "Date", message: "the date has no ISO 8601 form")
                }
                // `<date>` only where every parser reads it back the same: whole seconds, and
                // years 1900–9999 (earlier ones meet calendar reforms some parsers apply).
                let interval = date.timeIntervalSinceReferenceDate
                // -0.0 is whole but not a `<date>`: the element would read back as +0.0.
                let wholeSeconds = interval.rounded(.down) == interval && !(interval == 0 && interval.sign == .minus)
                if wholeSeconds, interval >= -3_187_296_000, text.utf8.count == 20 {
                    line(indent, "<date>\(text)</date>")
                } else {
                    line(indent, "<string>\(text)</string>")
                }
            case .array(let items):
                if items.isEmpty {
                    line(indent, "<array/>")
                    return
                }
                line(indent, "<array>")
                for (index, item) in items.enumerated() {
                    try StorageError.prefixingCodingPath(String(index)) { try write(item, indent: indent + 1) }
                }
                line(indent, "</array>")
            case .dictionary(let items):
                if items.isEmpty {
                    line(indent, "<dict/>")
                    return
                }
                line(indent, "<dict>")
                for key in items.keys.sorted() {
                    // Keys come from the sorted key list of `items`, so the lookup succeeds.
                    if let item = items[key] {
                        try StorageError.prefixingCodingPath(key) {
                            try element(indent + 1, "key", escaping: key)
                            try write(item, indent: indent + 1)
                        }
                    }
                }
                line(indent, "</dict>")
            }
        }

        /// Appends `text` with `&`, `<`, `>` and carriage returns escaped; ``element(_:_:escaping:)``
        /// has already refused the characters XML cannot carry.
        mutating func appendEscaped(_ text: String) {
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x26: append("&amp;")
                case 0x3C: append("&lt;")
                case 0x3E: append("&gt;")
                case 0x0D: append("&#13;") // XML parsers turn a raw CR into LF
                default: UTF8.encode(scalar) { bytes.append($0) }
                }
            }
        }

        static func text(of number: Double) -> String {
            if number.isNaN { return "nan" }
            if number.isInfinite { return number < 0 ? "-infinity" : "+infinity" }
            return number.description
        }
    }
}
