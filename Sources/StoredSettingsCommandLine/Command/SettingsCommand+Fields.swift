import Foundation
import StoredSettings

extension SettingsCommand {
    /// The structured setting `key` names a field of (`layout.indent`, `server.tls.port`), with
    /// the field's path; `nil` when the part before the first dot is no setting.
    func field(named key: String) -> (setting: any AnyStoredSetting, path: [String])? {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1, !parts.contains(""), let (_, setting) = setting(named: parts[0]) else { return nil }
        return (setting, Array(parts.dropFirst()))
    }

    /// `config set layout.indent 4`, as `--layout.indent 4` gives it for one run: sets one field
    /// of the structure the file holds (the default when it holds none), keeps the others, and
    /// writes the whole value once it still reads as the setting's type. The text is read as
    /// JSON (`4`, `true`, `{…}`) unless the field holds text or it is no JSON.
    func setField(
        _ path: [String], of setting: any AnyStoredSetting, to text: String, _ context: inout Context
    ) -> ExitCode {
        let name = ([setting.key] + path).joined(separator: ".")
        let shown = setting.isSecret ? ValueText.redacted : ValueText.quoted(text)
        guard let whole = writableStore?.value(forKey: setting.key) ?? setting.defaultStoredValue,
            case .dictionary = whole
        else {
            return context.fail(
                .notFound, "\(setting.key) holds no structure with a field '\(path.joined(separator: "."))'")
        }
        var candidates: [StoredValue] = []
        if case .string? = Self.value(at: path, in: whole) {
        } else if let parsed = try? StoredValueJSON.parse(Data(text.utf8)) {
            candidates.append(parsed)
        }
        candidates.append(.string(text))
        var firstProblem: (any Error)?
        for candidate in candidates {
            do {
                let merged = try StoredValueJSON.string(
                    from: Self.setting(path, to: candidate, in: whole), pretty: false)
                guard let value = try setting.storedValue(parsing: merged), Self.value(at: path, in: value) != nil
                else {
                    return unknownField(path, of: setting, in: whole, &context)
                }
                return write(value, to: setting, &context)
            } catch {
                firstProblem = firstProblem ?? error
            }
        }
        var message = "\(name) does not fit \(setting.key)'s type \(setting.declaredTypeName), got \(shown)"
        if !setting.isSecret, let problem = firstProblem as? StorageError, !problem.codingPath.isEmpty {
            message += ": at '\(problem.codingPath.joined(separator: "."))': \(problem.detail)"
        }
        return context.fail(.dataError, message)
    }

    /// The error for a field path the structure does not have, with a did-you-mean among the
    /// fields it has.
    private func unknownField(
        _ path: [String], of setting: any AnyStoredSetting, in whole: StoredValue, _ context: inout Context
    ) -> ExitCode {
        var fields: [String] = []
        func collect(_ value: StoredValue, prefix: String) {
            guard case .dictionary(let members) = value else { return }
            for (key, member) in members {
                fields.append(prefix + key)
                collect(member, prefix: prefix + key + ".")
            }
        }
        collect(whole, prefix: "")
        let written = path.joined(separator: ".")
        let hint = closestMatch(to: written, among: fields.sorted()).map { " (did you mean '\(setting.key).\($0)'?)" }
        return context.fail(.notFound, "\(setting.key) has no field '\(written)'\(hint ?? "")")
    }

    /// The value at `path` inside nested dictionaries, or `nil`.
    private static func value(at path: [String], in value: StoredValue) -> StoredValue? {
        var current = value
        for name in path {
            guard case .dictionary(let members) = current, let member = members[name] else { return nil }
            current = member
        }
        return current
    }

    /// `whole` with the value at `path` set to `value`, making the dictionaries on the way.
    private static func setting(_ path: [String], to value: StoredValue, in whole: StoredValue) -> StoredValue {
        guard let name = path.first else { return value }
        var members: [String: StoredValue] = [:]
        if case .dictionary(let existing) = whole { members = existing }
        members[name] = setting(Array(path.dropFirst()), to: value, in: members[name] ?? .dictionary([:]))
        return .dictionary(members)
    }
}
