/// The pure parser behind ``CommandLineStore``.
struct CommandLineParser {
    struct Result {
        var entries: [String: CommandLineStore.Entry] = [:]
        var remaining: [String] = []
        var errors: [StorageError] = []
    }

    private let options: [String: CommandLineStore.Option]
    /// The keys `--set` accepts, or `nil` for any key.
    private let declaredKeys: [String]?

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
        self.declaredKeys = declaredKeys
    }

    /// The error for a `--set` key the group does not declare, naming the declared key it is
    /// another spelling of (`page-size`, `PAGE_SIZE`, `pagesize` for `pageSize`).
    private func undeclaredKeyError(_ key: String) -> StorageError? {
        guard let declaredKeys, !declaredKeys.contains(key) else { return nil }
        func squeezed(_ text: String) -> String {
            String(text.lowercased().unicodeScalars.filter { !".-_/: ".unicodeScalars.contains($0) })
        }
        var message = "--set names no declared setting"
        if let match = declaredKeys.first(where: { squeezed($0) == squeezed(key) }) {
            message += "; it is spelled '\(match)'"
        }
        return StorageError(.invalidKey, key: key, path: "command line", message: message)
    }

    func parse(_ arguments: [String]) -> Result {
        var result = Result()
        var index = 0
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
            let name: Substring
            var inlineValue: Substring?
            if let equals = body.firstIndex(of: "=") {
                name = body[..<equals]
                inlineValue = body[body.index(after: equals)...]
            } else {
                name = body
            }

            if name == "set" {
                var assignment = inlineValue.map(String.init)
                if assignment == nil, index < arguments.count, !arguments[index].hasPrefix("--") {
                    assignment = arguments[index]
                    index += 1
                }
                guard let assignment else {
                    result.errors.append(Self.error("--set needs key=value after it"))
                    continue
                }
                guard let equals = assignment.firstIndex(of: "=") else {
                    result.errors.append(Self.error("--set expects key=value, but the argument after it has no '='"))
                    continue
                }
                let key = String(assignment[..<equals])
                let value = String(assignment[assignment.index(after: equals)...])
                do {
                    try StorageError.validate(key: key, location: "command line")
                } catch var error as StorageError {
                    error.message = "--set has " + (key.isEmpty ? "an empty key" : "a key with a control character")
                    result.errors.append(error)
                    continue
                } catch {
                    continue
                }
                if let error = undeclaredKeyError(key) {
                    result.errors.append(error)
                    continue
                }
                result.entries[key] = CommandLineStore.Entry(
                    value: .string(value), origin: "--set \(key)=… on the command line"
                )
                continue
            }

            if let option = options[String(name)] {
                if option.isFlag, inlineValue == nil {
                    result.entries[option.key] = CommandLineStore.Entry(
                        value: .bool(true), origin: "--\(name) on the command line")
                    continue
                }
                var value = inlineValue.map(String.init)
                if value == nil, index < arguments.count, !arguments[index].hasPrefix("--") {
                    value = arguments[index]
                    index += 1
                }
                guard let value else {
                    result.errors.append(Self.error("--\(name) needs a value", key: option.key))
                    continue
                }
                result.entries[option.key] = CommandLineStore.Entry(
                    value: .string(value), origin: "--\(name) on the command line")
                continue
            }

            if name.hasPrefix("no-"), let option = options[String(name.dropFirst(3))], option.isFlag {
                guard inlineValue == nil else {
                    result.errors.append(Self.error("--\(name) takes no value", key: option.key))
                    continue
                }
                result.entries[option.key] = CommandLineStore.Entry(
                    value: .bool(false), origin: "--\(name) on the command line")
                continue
            }

            result.remaining.append(argument)
        }
        return result
    }

    private static func error(_ message: String, key: String? = nil) -> StorageError {
        StorageError(.invalidArgument, key: key, path: "command line", message: message)
    }
}
