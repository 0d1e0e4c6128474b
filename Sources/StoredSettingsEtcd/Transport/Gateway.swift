import Foundation

/// The gateway's JSON forms: base64 keys and values, int64 numbers as strings.
enum Gateway {
    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
    static func base64(_ data: Data) -> String { data.base64EncodedString() }

    /// The key just past every key that starts with `prefix`: the `range_end` of a prefix range.
    static func rangeEnd(ofPrefix prefix: String) -> String {
        var bytes = Array(prefix.utf8)
        while let last = bytes.last {
            if last < 0xFF {
                bytes[bytes.count - 1] = last + 1
                return Data(bytes).base64EncodedString()
            }
            bytes.removeLast()
        }
        return Data([0]).base64EncodedString()
    }

    /// An int64 field, which the gateway writes as a string (and omits when 0).
    static func int64(_ value: Any?) -> Int64 {
        if let text = value as? String { return Int64(text) ?? 0 }
        if let number = value as? NSNumber { return number.int64Value }
        return 0
    }

    /// `header.revision` of an answer.
    static func revision(of answer: [String: Any]) -> Int64 {
        int64((answer["header"] as? [String: Any])?["revision"])
    }

    /// `header.raft_term` of an answer: the member's election term.
    static func raftTerm(of answer: [String: Any]) -> Int64 {
        int64((answer["header"] as? [String: Any])?["raft_term"])
    }

    /// A key-value of an answer: its key's bytes, value's bytes and mod revision.
    struct KeyValue {
        var key: String
        var value: Data
        var modRevision: Int64
        /// How many times the key was put since it was created (1: this put created it; 0 in a
        /// delete event).
        var version: Int64 = 0
    }

    static func keyValue(_ object: Any?) -> KeyValue? {
        guard let object = object as? [String: Any],
            let key = (object["key"] as? String).flatMap({ Data(base64Encoded: $0) })
        else {
            return nil
        }
        let value = (object["value"] as? String).flatMap { Data(base64Encoded: $0) } ?? Data()
        return KeyValue(
            key: String(decoding: key, as: UTF8.self), value: value, modRevision: int64(object["mod_revision"]),
            version: int64(object["version"]))
    }

    static func keyValues(of answer: [String: Any]) -> [KeyValue] {
        (answer["kvs"] as? [Any] ?? []).compactMap(keyValue)
    }
}
