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
    /// of the structure the file holds (the default when it holds none) in one
    /// `update(forKey:)`, so a concurrent write is not lost, and keeps every other member,
    /// those the type does not declare too. The text is read as JSON (`4`, `true`, `{…}`)
    /// unless the field holds text or it is no JSON; the result must read as the setting's
    /// type before anything is written. Only settings whose default is a structure have
    /// fields, as only they have field options.
    func setField(
        _ path: [String], of setting: any AnyStoredSetting, to text: String, _ context: inout Context
    ) -> ExitCode {
        let name = ([setting.key] + path).joined(separator: ".")
        guard case .dictionary(let defaults)? = setting.defaultStoredValue else {
            return context.fail(
                .notFound, "\(setting.key) is no structure; it has no field '\(path.joined(separator: "."))'")
        }
        do {
            try setting.settingStore.update(forKey: setting.key) { stored in
                let whole = stored ?? .dictionary(defaults)
                guard case .dictionary = whole else { throw FieldProblem.notAStructure(whole.kind) }
                // Every field on the way must be there already: a path is never deeper than the value.
                guard
                    path.dropLast().indices.allSatisfy({
                        Self.value(at: Array(path[...$0]), in: whole)?.kind == "dictionary"
                    })
                else { throw FieldProblem.unknown(whole) }
                stored = try Self.merged(text, at: path, into: whole, of: setting)
            }
        } catch FieldProblem.unknown(let whole) {
            return unknownField(path, of: setting, in: whole, &context)
        } catch FieldProblem.notAStructure(let kind) {
            return context.fail(
                .dataError,
                "\(setting.key) holds \(kind), not a structure; give the whole value with 'set \(setting.key) JSON'")
        } catch FieldProblem.doesNotFit(let problem) {
            var message = "\(name) does not fit \(setting.key)'s type \(setting.declaredTypeName), got "
            message += setting.isSecret ? ValueText.redacted : ValueText.quoted(text)
            if !setting.isSecret, let problem = problem as? StorageError, !problem.codingPath.isEmpty {
                message += ": at '\(problem.codingPath.joined(separator: "."))': \(problem.detail)"
            }
            return context.fail(.dataError, message)
        } catch {
            return failedWrite(error, of: setting, &context)
        }
        noteOverride(of: setting, &context)
        return .success
    }

    /// Why a field could not be set.
    private enum FieldProblem: Error {
        case unknown(StoredValue)
        case notAStructure(String)
        case doesNotFit(any Error)
    }

    /// `whole` with the field at `path` set from `text`, checked against the setting's type;
    /// the field as the type writes it, every other member as it was.
    private static func merged(
        _ text: String, at path: [String], into whole: StoredValue, of setting: any AnyStoredSetting
    ) throws -> StoredValue {
        var candidates: [StoredValue] = []
        if case .string? = value(at: path, in: whole) {
        } else if let parsed = try? StoredValueJSON.parse(Data(text.utf8)) {
            candidates.append(parsed)
        }
        candidates.append(.string(text))
        var firstProblem: (any Error)?
        for candidate in candidates {
            let merged = replacing(path, with: candidate, in: whole)
            let checked: StoredValue?
            do {
                checked = try setting.storedValue(parsing: StoredValueJSON.string(from: merged, pretty: false))
            } catch {
                firstProblem = firstProblem ?? error
                continue
            }
            guard let checked, let field = value(at: path, in: checked) else { throw FieldProblem.unknown(whole) }
            return replacing(path, with: field, in: whole)
        }
        throw FieldProblem.doesNotFit(firstProblem ?? StorageError(.typeMismatch))
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
    private static func replacing(_ path: [String], with value: StoredValue, in whole: StoredValue) -> StoredValue {
        guard let name = path.first else { return value }
        var members: [String: StoredValue] = [:]
        if case .dictionary(let existing) = whole { members = existing }
        members[name] = replacing(Array(path.dropFirst()), with: value, in: members[name] ?? .dictionary([:]))
        return .dictionary(members)
    }
}
