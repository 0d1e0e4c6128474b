import StoredSettings

/// The pure parser behind ``CommandLineStore``.
struct CommandLineParser {
    struct Result {
        var entries: [String: CommandLineStore.Entry] = [:]
        var fields: [String: [FieldOverride]] = [:]
        var remaining: [String] = []
        var errors: [StorageError] = []
        var warnings: [StorageError] = []
        /// The items each list option has given so far, for joining repeated occurrences.
        var listItems: [String: [StoredValue]] = [:]
        /// The list keys whose value is text that spells no list.
        var malformedLists: Set<String> = []

        /// Gives `key` a whole value: it replaces the field overrides given before it, as a
        /// later value replaces an earlier one (fields given after it still override it).
        mutating func setWhole(_ key: String, _ entry: CommandLineStore.Entry) {
            entries[key] = entry
            fields[key] = nil
        }
    }

    private let options: [String: CommandLineStore.Option]
    /// The shape of every declared key, reserved options included (`--set` reaches them all).
    private let shapes: [String: SettingDeclaration.Shape]
    /// The keys `--set` accepts, or `nil` for any key.
    private let declaredKeys: [String]?
    /// The tool's own option names, never taken for misspelt options of settings.
    private let reservedNames: Set<String>

    /// - Parameters:
    ///   - options: The declared options; reserved names and repeated names are dropped.
    ///   - declaredKeys: The keys `--set` accepts, or `nil` for any key.
    ///   - reservedNames: Names that stay the tool's whatever a setting is named; `set` is
    ///     always reserved, as the store's own.
    init(options: [CommandLineStore.Option], declaredKeys: [String]? = nil, reservedNames: Set<String> = []) {
        var byName: [String: CommandLineStore.Option] = [:]
        let reserved = reservedNames.union(["set"])
        for option in options
        where byName[option.name] == nil && !reserved.contains(option.name)
            && !(option.name.hasPrefix("no-") && reserved.contains(String(option.name.dropFirst(3))))
        {
            byName[option.name] = option
        }
        self.options = byName
        self.shapes = Dictionary(options.map { ($0.key, $0.shape) }, uniquingKeysWith: { first, _ in first })
        self.declaredKeys = declaredKeys
        self.reservedNames = reserved
    }

    /// The option that gives `key`, or `nil` when the key has none (its name is reserved, taken
    /// by an earlier key, or has characters no option name can hold): `--set` gives it then.
    func option(forKey key: String) -> CommandLineStore.Option? {
        options.values.first { $0.key == key }
    }

    /// The error for a `--set` key the group does not declare, naming the declared key it is
    /// another spelling of (`page-size`, `PAGE_SIZE`, `pagesize` for `pageSize`).
    private func undeclaredKeyError(_ key: String) -> StorageError? {
        guard let declaredKeys, !declaredKeys.contains(key) else { return nil }
        func squeezed(_ text: String) -> String {
            String(text.lowercased().unicodeScalars.filter { !".-_/: ".unicodeScalars.contains($0) })
        }
        var message = "no declared setting uses this key"
        if let match = declaredKeys.first(where: { squeezed($0) == squeezed(key) }) {
            message += "; it is spelled '\(match)'"
        } else if let match = closestMatch(to: key, among: declaredKeys.sorted()) {
            message += " (did you mean '\(match)'?)"
        }
        return StorageError(.invalidKey, key: key, location: "--set on the command line", message: message)
    }

    func parse(_ arguments: [String]) -> Result {
        var result = Result()
        var index = 0
        /// The next argument as a value, when there is one that is not an option.
        func nextValue() -> String? {
            guard index < arguments.count, !arguments[index].hasPrefix("--") else { return nil }
            index += 1
            return arguments[index - 1]
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                result.remaining.append(contentsOf: arguments[(index - 1)...])
                break
            }
            guard argument.hasPrefix("--") else {
                result.remaining.append(argument)
                continue
            }
            let body = argument.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }

            if name == "set" {
                parseAssignment(inlineValue ?? nextValue(), into: &result)
                continue
            }

            if let option = options[name] {
                if option.isFlag, inlineValue == nil {
                    // `--auto-reload false` is a mistake, not `true` and a stray argument.
                    if index < arguments.count, let word = Self.booleanWord(arguments[index]) {
                        index += 1
                        let hint = word ? "--\(name)=true or --\(name)" : "--\(name)=false or --no-\(name)"
                        result.errors.append(
                            Self.error(
                                "--\(name) is a flag and takes no separate value '\(arguments[index - 1])'; write \(hint)",
                                key: option.key, option: name))
                        continue
                    }
                    result.entries[option.key] = CommandLineStore.Entry(
                        value: .bool(true), origin: "--\(name) on the command line")
                    continue
                }
                guard let value = inlineValue ?? nextValue() else {
                    result.errors.append(Self.error("--\(name) needs a value", key: option.key, option: name))
                    continue
                }
                if option.shape == .list {
                    appendList(value, forKey: option.key, origin: "--\(name) on the command line", into: &result)
                } else {
                    result.setWhole(
                        option.key,
                        CommandLineStore.Entry(value: .string(value), origin: "--\(name) on the command line"))
                }
                continue
            }

            if name.hasPrefix("no-"), let option = options[String(name.dropFirst(3))], option.isFlag {
                guard inlineValue == nil else {
                    result.errors.append(Self.error("--\(name) takes no value", key: option.key, option: name))
                    continue
                }
                // `--no-dry-run false` is as much a mistake as `--dry-run false`.
                if index < arguments.count, Self.booleanWord(arguments[index]) != nil {
                    index += 1
                    let flag = "--" + option.name
                    result.errors.append(
                        Self.error(
                            "--\(name) is a flag and takes no separate value '\(arguments[index - 1])'; write "
                                + "\(flag)=true or \(flag)=false",
                            key: option.key, option: name))
                    continue
                }
                result.entries[option.key] = CommandLineStore.Entry(
                    value: .bool(false), origin: "--\(name) on the command line")
                continue
            }

            if let dot = name.firstIndex(of: "."), let option = options[String(name[..<dot])],
                case .structure(let fields) = option.shape
            {
                let written = name[name.index(after: dot)...].split(separator: ".", omittingEmptySubsequences: false)
                guard let path = Self.fieldPath(written.map(String.init), in: fields) else {
                    result.errors.append(
                        unknownFieldError(
                            "--\(name)", owner: option.key, written: written.map(String.init), fields: fields,
                            spelled: { "--\(option.name).\($0)" }))
                    if inlineValue == nil { _ = nextValue() }
                    continue
                }
                guard let value = inlineValue ?? nextValue() else {
                    result.errors.append(Self.error("--\(name) needs a value", key: option.key, option: name))
                    continue
                }
                result.fields[option.key, default: []].append(
                    FieldOverride(path: path, value: .string(value), origin: "--\(name) on the command line"))
                continue
            }

            result.remaining.append(argument)
            if let hint = misspeltOptionHint(name) {
                result.warnings.append(
                    StorageError(
                        .unknownKey, location: "command line",
                        message: "--\(name) is not an option of any setting (did you mean '--\(hint)'?)"))
            }
        }
        return result
    }

    /// `--set key=value`: a whole value, or one field of a declared structure
    /// (`--set layout.indent=4`). A declared key wins over a field path spelled the same.
    private func parseAssignment(_ assignment: String?, into result: inout Result) {
        guard let assignment else {
            result.errors.append(Self.error("--set needs key=value after it"))
            return
        }
        guard let equals = assignment.firstIndex(of: "=") else {
            result.errors.append(Self.error("--set expects key=value, but the argument after it has no '='"))
            return
        }
        let key = String(assignment[..<equals])
        let value = String(assignment[assignment.index(after: equals)...])
        do {
            try StorageError.validate(key: key, location: "command line")
        } catch var error as StorageError {
            error.message = "--set has " + (key.isEmpty ? "an empty key" : "a key with a control character")
            result.errors.append(error)
            return
        } catch {
            return
        }
        if shapes[key] == nil, declaredKeys?.contains(key) != true,
            let (structure, written, fields) = structuredPrefix(of: key)
        {
            guard let path = Self.fieldPath(written, in: fields) else {
                result.errors.append(
                    unknownFieldError(
                        "--set \(key)", owner: structure, written: written, fields: fields,
                        spelled: { "--set \(structure).\($0)=…" }))
                return
            }
            result.fields[structure, default: []].append(
                FieldOverride(path: path, value: .string(value), origin: "--set \(key)=… on the command line"))
            return
        }
        if let error = undeclaredKeyError(key) {
            result.errors.append(error)
            return
        }
        result.listItems[key] = nil
        result.malformedLists.remove(key)
        result.setWhole(
            key, CommandLineStore.Entry(value: .string(value), origin: "--set \(key)=… on the command line"))
    }

    /// One occurrence of a list option: its items (list text or JSON array text) join those
    /// given before it (by earlier occurrences or a `--set`). The first occurrence is kept as
    /// text, as `--set` keeps it; one that spells no list is kept as the value, so reading it is
    /// the type mismatch that names the option, and later occurrences add nothing to it.
    private func appendList(_ text: String, forKey key: String, origin: String, into result: inout Result) {
        if result.malformedLists.contains(key) { return }
        guard let items = Self.items(of: .string(text)) else {
            result.malformedLists.insert(key)
            result.entries[key] = CommandLineStore.Entry(value: .string(text), origin: origin)
            return
        }
        var previous: [StoredValue]?
        if let given = result.listItems[key] {
            previous = given
        } else if let entry = result.entries[key] {
            guard let given = Self.items(of: entry.value) else {
                result.malformedLists.insert(key)
                return
            }
            previous = given
        }
        // Given more than once, every occurrence must hold items: an empty one is a mistake,
        // never a shorter list.
        if let previous, items.isEmpty || previous.isEmpty {
            let name = origin.split(separator: " ").first.map(String.init) ?? key
            result.errors.append(
                Self.error("\(name) is given more than once and one of them holds no items", key: key))
            result.malformedLists.insert(key)
            return
        }
        result.listItems[key] = (previous ?? []) + items
        let value: StoredValue = previous.map { .array($0 + items) } ?? .string(text)
        result.entries[key] = CommandLineStore.Entry(value: value, origin: origin)
    }

    /// The items `value` spells as a list, or `nil` when it spells none.
    private static func items(of value: StoredValue) -> [StoredValue]? {
        guard case .array(let items)? = try? value.parsingListText(expectedType: "a list") else { return nil }
        return items
    }

    /// The longest declared structured key that `key` continues with `.field…`, the fields
    /// written after it, and the structure's fields.
    private func structuredPrefix(of key: String) -> (String, [String], [String: SettingDeclaration.Shape])? {
        var parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var written: [String] = []
        while parts.count > 1 {
            written.insert(parts.removeLast(), at: 0)
            let candidate = parts.joined(separator: ".")
            if case .structure(let fields)? = shapes[candidate] { return (candidate, written, fields) }
        }
        return nil
    }

    /// The stored field names for `written` (each the field's name or its kebab-case
    /// spelling), or `nil` when one names no field.
    private static func fieldPath(_ written: [String], in fields: [String: SettingDeclaration.Shape]) -> [String]? {
        var path: [String] = []
        var current = fields
        for (position, part) in written.enumerated() {
            guard let field = current.keys.sorted().first(where: { $0 == part || KeyWords.kebabCase($0) == part })
            else { return nil }
            path.append(field)
            if case .structure(let inner)? = current[field] {
                current = inner
            } else if position < written.count - 1 {
                return nil
            }
        }
        return path.isEmpty ? nil : path
    }

    /// The error for a field path that names no field of the structure `owner`, with a
    /// did-you-mean hint spelled by `spelled`.
    private func unknownFieldError(
        _ argument: String, owner: String, written: [String], fields: [String: SettingDeclaration.Shape],
        spelled: (String) -> String
    ) -> StorageError {
        var candidates: [String] = []
        func collect(_ fields: [String: SettingDeclaration.Shape], prefix: String) {
            for (name, shape) in fields {
                candidates.append(prefix + name)
                if case .structure(let inner) = shape { collect(inner, prefix: prefix + name + ".") }
            }
        }
        collect(fields, prefix: "")
        let path = written.joined(separator: ".")
        var message = "\(argument) names no field of '\(owner)'"
        if let match = closestMatch(to: path, among: candidates.sorted()) {
            message += " (did you mean '\(spelled(match))'?)"
        }
        return StorageError(.unknownKey, key: owner + "." + path, location: "command line", message: message)
    }

    /// The declared option `name` is most likely a misspelling of, for a warning.
    private func misspeltOptionHint(_ name: String) -> String? {
        guard !options.isEmpty, !name.isEmpty, !reservedNames.contains(name) else { return nil }
        let names = options.values.flatMap { $0.isFlag ? [$0.name, "no-" + $0.name] : [$0.name] }
        return closestMatch(to: name, among: names.sorted())
    }

    /// The Boolean words a flag must not be followed by: `true`/`false`, `yes`/`no`,
    /// `on`/`off`, `1`/`0`, in any case; `nil` for any other argument.
    static func booleanWord(_ argument: String) -> Bool? {
        switch argument.lowercased() {
        case "true", "yes", "on", "1": true
        case "false", "no", "off", "0": false
        default: nil
        }
    }

    /// An error of the arguments, placed at the option `--option` when one is named.
    private static func error(_ message: String, key: String? = nil, option: String? = nil) -> StorageError {
        let location = option.map { "--\($0) on the command line" } ?? "command line"
        return StorageError(.invalidArgument, key: key, location: location, message: message)
    }
}
