extension Stored {
    /// What values of the setting's type look like, for messages: `true or false`,
    /// `one of: plain, markdown`.
    package var valueHint: String? {
        ValueTypeInfo.hint(for: ValueTypeInfo.unwrapped(Value.self))
    }

    /// Whether the value is an array or a set (or an optional one).
    package var isList: Bool { ValueTypeInfo.unwrapped(Value.self) is any ListValue.Type }

    /// Whether the value is a dictionary with open keys (`[String: V]`, or an optional one).
    package var isDictionary: Bool { ValueTypeInfo.unwrapped(Value.self) is any DictionaryValue.Type }

    /// The Swift type as the codec names it (the wrapped type for optionals): `Int`, `Theme`.
    package var valueTypeName: String { setting.codec.typeName }

    /// `stored` decoded as the setting's type, throwing what the conversion throws.
    package func decodedValue(_ stored: StoredValue) throws -> Value {
        try setting.codec.decode(stored)
    }

    /// `value` in stored form (`nil` for an optional's `nil`), throwing what the conversion throws.
    package func encodedValue(_ value: Value) throws -> StoredValue? {
        try setting.codec.encode(value)
    }

    /// `problem`, told as `config set` tells it: the value found, never a secret's, and when
    /// the problem is about the setting's own value (not a field inside it) the type as Swift
    /// spells it with what its values look like
    /// (`expected Mode (one of: fast, safe), found string "turbo"`).
    package func explainingMismatch(_ problem: StorageError, of whole: StoredValue) -> StorageError {
        guard problem.code == .typeMismatch else { return problem }
        var problem = problem
        var value = whole
        if problem.codingPath.isEmpty {
            let name = sugaredTypeName(setting.codec.typeName)
            // A list or dictionary is spelled differently in each layer; its name says enough.
            let hint = isList || isDictionary ? nil : valueHint
            problem.expectedType = hint.map { "\(name) (\($0))" } ?? name
        } else {
            // A field's own value, found by the path the decoder gives.
            for component in problem.codingPath {
                switch value {
                case .dictionary(let members) where members[component] != nil: value = members[component]!
                case .array(let items) where Int(component).map(items.indices.contains) == true:
                    value = items[Int(component)!]
                default: return problem
                }
            }
        }
        // Only a plain kind is told again with its text; "malformed list text" and the like stay.
        guard problem.foundKind == nil || problem.foundKind == value.kind else { return problem }
        switch value {
        case .array, .dictionary, .data: problem.foundKind = value.kind
        case _ where isSecret: problem.foundKind = value.kind
        case .string(let text): problem.foundKind = value.kind + " " + ValueText.quoted(text)
        default: problem.foundKind = value.kind + " " + ValueText.display(value)
        }
        return problem
    }
}
