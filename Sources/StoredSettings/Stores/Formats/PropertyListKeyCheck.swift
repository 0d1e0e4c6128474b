import Foundation

/// Finds dictionaries in XML property-list files that hold two canonically equivalent keys,
/// which `PropertyListSerialization` merges silently into one `String` key: the keys are read
/// from the file's own bytes, so such a file is refused naming both.
enum PropertyListKeyCheck {
    /// Throws ``StorageError/Code/dataCorrupted`` naming both keys when a `<dict>` of `bytes`,
    /// well-formed XML that `PropertyListSerialization` has parsed, holds two such keys.
    static func checkXML(_ bytes: UnsafeRawBufferPointer) throws {
        let count = bytes.count
        var scopes: [[String: String]] = []
        var index = 0
        func starts(_ word: String, at position: Int) -> Bool {
            let utf8 = Array(word.utf8)
            guard position + utf8.count <= count else { return false }
            return utf8.indices.allSatisfy { bytes[position + $0] == utf8[$0] }
        }
        func skip(to end: String, from position: Int) -> Int {
            var position = position
            while position < count, !starts(end, at: position) { position += 1 }
            return min(position + end.utf8.count, count)
        }
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if starts("<!--", at: index) {
                index = skip(to: "-->", from: index + 4)
            } else if starts("<![CDATA[", at: index) {
                index = skip(to: "]]>", from: index + 9)
            } else if starts("<?", at: index) {
                index = skip(to: "?>", from: index + 2)
            } else if starts("<!", at: index) {
                index = skip(to: ">", from: index + 2)
            } else if starts("<key>", at: index) {
                let start = index + 5
                let end = skip(to: "</key>", from: start)
                let key = decodeXMLText(UnsafeRawBufferPointer(rebasing: bytes[start..<max(start, end - 6)]))
                if !scopes.isEmpty {
                    if let existing = scopes[scopes.count - 1][key],
                        !existing.unicodeScalars.elementsEqual(key.unicodeScalars)
                    {
                        throw StorageError(.dataCorrupted, message: canonicallyEquivalentKeysMessage(existing, key))
                    }
                    scopes[scopes.count - 1][key] = key
                }
                index = end
            } else if starts("<dict", at: index) || starts("</dict", at: index) {
                let closing = bytes[index + 1] == UInt8(ascii: "/")
                let end = skip(to: ">", from: index)
                if closing {
                    if !scopes.isEmpty { scopes.removeLast() }
                } else if bytes[end - 2] != UInt8(ascii: "/") {
                    scopes.append([:])
                }
                index = end
            } else {
                index += 1
            }
        }
    }

    /// The text of XML character data: UTF-8 with the five predefined entities and numeric
    /// character references decoded, and CDATA sections taken as they are.
    private static func decodeXMLText(_ bytes: UnsafeRawBufferPointer) -> String {
        let raw = String(decoding: bytes, as: UTF8.self)
        guard raw.contains("&") || raw.contains("<![CDATA[") else { return raw }
        var result = ""
        var rest = Substring(raw)
        while let first = rest.first {
            if rest.hasPrefix("<![CDATA["), let end = rest.range(of: "]]>") {
                result += rest[rest.index(rest.startIndex, offsetBy: 9)..<end.lowerBound]
                rest = rest[end.upperBound...]
            } else if first == "&", let semicolon = rest.firstIndex(of: ";") {
                let name = rest[rest.index(after: rest.startIndex)..<semicolon]
                switch name {
                case "amp": result += "&"
                case "lt": result += "<"
                case "gt": result += ">"
                case "quot": result += "\""
                case "apos": result += "'"
                default:
                    let number =
                        name.hasPrefix("#x") || name.hasPrefix("#X")
                        ? UInt32(name.dropFirst(2), radix: 16)
                        : name.hasPrefix("#") ? UInt32(name.dropFirst(), radix: 10) : nil
                    if let number, let scalar = Unicode.Scalar(number) {
                        result.unicodeScalars.append(scalar)
                    } else {
                        result += "&" + name + ";"
                    }
                }
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result.append(first)
                rest = rest.dropFirst()
            }
        }
        return result
    }
}
