import StoredSettings

/// A mistake in the arguments: reported on one line with a pointer to the help, exit code 64.
package struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, without a final period: `write needs a VALUE after the key`.
    package var message: String
    /// The verb whose help to point to; `nil` for the overview.
    package var verb: Verb?

    package init(_ message: String, verb: Verb? = nil) {
        self.message = message
        self.verb = verb
    }

    /// `write needs a VALUE after the key. See 'stored help write'.`
    package var description: String {
        "\(message). See 'stored help\(verb.map { " " + $0.rawValue } ?? "")'."
    }
}

/// Turns the arguments of `stored` (without the program name) into a ``Command``.
///
/// Pure: it reads no file, environment or input, so every spelling can be tested as a table.
///
/// Rules:
/// - `help`, `--help` and `-h` first, or `--help`/`-h` anywhere after a verb, ask for help.
/// - TARGET is `--domain NAME` (or `--domain=NAME`), or a path ending in `.json` or `.plist`
///   (any case); anything else is a usage error.
/// - `write TARGET KEY VALUE` stores VALUE as a string, even when it starts with `-`, unless it
///   is exactly a TYPE flag (then the VALUE is missing). `write TARGET KEY TYPE VALUE` needs a
///   known TYPE flag. To store a string that is a TYPE flag or `--help`, use
///   `-json '"-int"'`.
/// - `export` takes `--format json|plist` (or `--format=…`) before or after the target.
package enum CommandParser {
    /// Parses `arguments`.
    ///
    /// - Throws: ``UsageError`` for an unknown verb, type or option, a missing or extra
    ///   argument, a target that is not a `.json`/`.plist` path or `--domain NAME`, or an empty
    ///   key or one with control characters.
    package static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let first = arguments.first else { throw UsageError("missing command") }
        if first == "--help" || first == "-h" { return .help(nil) }
        guard let verb = Verb(rawValue: first) else {
            if first.hasPrefix("-") { throw UsageError("unknown option '\(first)'") }
            throw UsageError("unknown command '\(first)'")
        }
        var rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") { return .help(verb) }
        if verb == .help { return try parseHelp(rest) }

        switch verb {
        case .read:
            let target = try takeTarget(&rest, verb: verb)
            let key = try takeKey(&rest, verb: verb, required: false)
            try expectEnd(rest, verb: verb)
            return .read(target, key: key)
        case .write:
            let target = try takeTarget(&rest, verb: verb)
            guard let key = try takeKey(&rest, verb: verb, required: true) else {
                throw UsageError("write needs a KEY", verb: verb)
            }
            return .write(target, key: key, value: try takeValue(&rest, verb: verb))
        case .delete:
            let target = try takeTarget(&rest, verb: verb)
            let key = try takeKey(&rest, verb: verb, required: false)
            try expectEnd(rest, verb: verb)
            return .delete(target, key: key)
        case .keys:
            let target = try takeTarget(&rest, verb: verb)
            try expectEnd(rest, verb: verb)
            return .keys(target)
        case .export:
            let format = try takeFormat(&rest)
            let target = try takeTarget(&rest, verb: verb)
            try expectEnd(rest, verb: verb)
            return .export(target, format: format)
        case .import:
            let target = try takeTarget(&rest, verb: verb)
            guard let file = rest.first else { throw UsageError("import needs a FILE to read", verb: verb) }
            rest.removeFirst()
            try expectEnd(rest, verb: verb)
            return .import(target, file: file)
        case .domains:
            try expectEnd(rest, verb: verb)
            return .domains
        case .help:
            return try parseHelp(rest)
        }
    }

    // MARK: - Pieces

    private static func parseHelp(_ rest: [String]) throws(UsageError) -> Command {
        guard let name = rest.first else { return .help(nil) }
        guard let verb = Verb(rawValue: name) else { throw UsageError("unknown command '\(name)'") }
        try expectEnd(Array(rest.dropFirst()), verb: .help)
        return .help(verb)
    }

    private static func takeTarget(_ rest: inout [String], verb: Verb) throws(UsageError) -> Target {
        guard let first = rest.first else {
            throw UsageError("\(verb.rawValue) needs a TARGET: a .json or .plist path, or --domain NAME", verb: verb)
        }
        rest.removeFirst()
        if first == "--domain" {
            guard let name = rest.first else { throw UsageError("--domain needs a NAME", verb: verb) }
            rest.removeFirst()
            return try domain(name, verb: verb)
        }
        if first.hasPrefix("--domain=") {
            return try domain(String(first.dropFirst("--domain=".count)), verb: verb)
        }
        if first.hasPrefix("-") { throw UsageError("unknown option '\(first)'", verb: verb) }
        if first.hasPrefix("etcd://") || first.hasPrefix("etcds://") { return .etcd(first) }
        let lowercased = first.lowercased()
        guard lowercased.hasSuffix(".json") || lowercased.hasSuffix(".plist") else {
            throw UsageError(
                "'\(first)' is not a TARGET: give a path ending in .json or .plist, or --domain NAME", verb: verb)
        }
        return .file(first)
    }

    private static func domain(_ name: String, verb: Verb) throws(UsageError) -> Target {
        guard !name.isEmpty else { throw UsageError("--domain needs a NAME", verb: verb) }
        return .domain(name)
    }

    private static func takeKey(_ rest: inout [String], verb: Verb, required: Bool) throws(UsageError) -> String? {
        guard let key = rest.first else { return nil }
        rest.removeFirst()
        do {
            try StorageError.validate(key: key)
        } catch {
            let reason = (error as? StorageError)?.message ?? "the key is not valid"
            throw UsageError("KEY is not valid: \(reason)", verb: verb)
        }
        return key
    }

    private static func takeValue(_ rest: inout [String], verb: Verb) throws(UsageError) -> ValueArgument {
        switch rest.count {
        case 0:
            throw UsageError("write needs a VALUE after the key", verb: verb)
        case 1:
            if let type = ValueType(flag: rest[0]) {
                throw UsageError("write needs a VALUE after \(type.flag)", verb: verb)
            }
            return ValueArgument(.string, rest[0])
        case 2:
            guard let type = ValueType(flag: rest[0]) else {
                if rest[0].hasPrefix("-") {
                    throw UsageError(
                        "unknown TYPE '\(rest[0])': use -bool, -int, -float, -string, -date, -data or -json", verb: verb
                    )
                }
                throw UsageError("unexpected argument '\(rest[1])'", verb: verb)
            }
            return ValueArgument(type, rest[1])
        default:
            throw UsageError("unexpected argument '\(rest[2])'", verb: verb)
        }
    }

    private static func takeFormat(_ rest: inout [String]) throws(UsageError) -> ExportFormat {
        var format = ExportFormat.json
        var index = 0
        while index < rest.count {
            let argument = rest[index]
            let value: String
            if argument == "--format" {
                guard index + 1 < rest.count else { throw UsageError("--format needs json or plist", verb: .export) }
                value = rest[index + 1]
                rest.removeSubrange(index...(index + 1))
            } else if argument.hasPrefix("--format=") {
                value = String(argument.dropFirst("--format=".count))
                rest.remove(at: index)
            } else {
                index += 1
                continue
            }
            guard let parsed = ExportFormat(rawValue: value) else {
                throw UsageError("unknown format '\(value)': use json or plist", verb: .export)
            }
            format = parsed
        }
        return format
    }

    private static func expectEnd(_ rest: [String], verb: Verb) throws(UsageError) {
        if let extra = rest.first { throw UsageError("unexpected argument '\(extra)'", verb: verb) }
    }
}
