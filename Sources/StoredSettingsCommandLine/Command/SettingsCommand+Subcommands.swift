import Foundation
import StoredSettings

extension SettingsCommand {
    func list(_ arguments: [String], _ context: inout Context) -> ExitCode {
        var showOrigin = false
        var json = false
        for argument in arguments {
            switch argument {
            case "--show-origin": showOrigin = true
            case "--json": json = true
            default: return context.usage("list does not take '\(argument)'")
            }
        }
        let descriptions = settings.map { describe($0.setting, propertyName: $0.name) }
        if json {
            context.output += Self.json(descriptions)
        } else {
            var rows = [showOrigin ? ["KEY", "TYPE", "VALUE", "ORIGIN"] : ["KEY", "TYPE", "VALUE"]]
            for description in descriptions {
                let value = Self.tableText(description.displayValue)
                rows.append(
                    showOrigin
                        ? [description.key, description.typeName, value, description.origin]
                        : [description.key, description.typeName, value])
            }
            context.output += Self.table(rows)
        }
        for warning in unreportedWarnings() {
            context.error += "\(toolName) \(commandName): warning: \(warning)\n"
        }
        var status: ExitCode = .success
        for problem in descriptions.compactMap(\.problem) {
            status = context.fail(.dataError, problem.description)
        }
        return status
    }

    func get(_ arguments: [String], _ context: inout Context) -> ExitCode {
        var keys: [String] = []
        var showSecret = false
        var showOrigin = false
        for argument in arguments {
            if argument == "--show-secret" {
                showSecret = true
            } else if argument == "--show-origin" {
                showOrigin = true
            } else if argument.hasPrefix("--") {
                return context.usage("get does not take '\(argument)'")
            } else {
                keys.append(argument)
            }
        }
        guard keys.count == 1, let key = keys.first else { return context.usage("get needs one KEY") }
        guard let (_, setting) = setting(named: key) else { return notFound(key, &context) }
        let value: StoredValue?
        do {
            value = try setting.currentStoredValue() ?? setting.defaultStoredValue
        } catch {
            return context.fail(.dataError, StorageError(.dataCorrupted, wrapping: error, key: setting.key).description)
        }
        guard let value else {
            return context.fail(.notFound, "\(setting.key) is not set")
        }
        let text = setting.isSecret && !showSecret ? ValueText.redacted : ValueText.display(value)
        // As `git config --show-origin`: where the value comes from, a tab, the value.
        let origin = setting.settingStore.describedOrigin(forKey: setting.key) ?? "default"
        context.print(showOrigin ? "\(origin)\t\(text)" : text)
        return .success
    }

    func set(_ arguments: [String], _ context: inout Context) -> ExitCode {
        guard arguments.count == 2 else { return context.usage("set needs KEY and VALUE") }
        let key = arguments[0]
        let text = arguments[1]
        guard let (_, setting) = setting(named: key) else {
            if let (setting, path) = field(named: key) { return setField(path, of: setting, to: text, &context) }
            return notFound(key, &context)
        }
        let value: StoredValue?
        do {
            value = try setting.storedValue(parsing: text)
        } catch {
            var message =
                "\(setting.key) expects \(ValueTypeInfo.withArticle(setting.declaredTypeName.trimmingSuffix("?")))"
            if let hint = setting.valueHint { message += " (\(hint))" }
            message += ", got " + (setting.isSecret ? ValueText.redacted : ValueText.quoted(text))
            // Inside a structure, say where it went wrong (field names are not values, but a
            // secret's structure stays hidden too).
            if !setting.isSecret, let problem = error as? StorageError, !problem.codingPath.isEmpty {
                message += ": at '\(problem.codingPath.joined(separator: "."))': \(problem.detail)"
            }
            return context.fail(.dataError, message)
        }
        return write(value, to: setting, &context)
    }

    /// Stores `value` for `setting`, noting a layer above that still overrides it.
    func write(_ value: StoredValue?, to setting: any AnyStoredSetting, _ context: inout Context) -> ExitCode {
        do {
            try setting.settingStore.setValue(value, forKey: setting.key)
        } catch {
            return failedWrite(error, of: setting, &context)
        }
        noteOverride(of: setting, &context)
        return .success
    }

    func unset(_ arguments: [String], _ context: inout Context) -> ExitCode {
        guard arguments.count == 1, let key = arguments.first, !key.hasPrefix("--") else {
            return context.usage("unset needs one KEY")
        }
        if let (_, setting) = setting(named: key) {
            let store = setting.settingStore
            let target = (store as? LayeredStore)?.writable ?? store
            if target.value(forKey: setting.key) == nil {
                let location = (target as? FileStore)?.url.path ?? target.location ?? "the settings"
                return context.fail(.notSet, "\(setting.key) is not set in \(location)")
            }
        }
        return remove([key], &context)
    }

    func reset(_ arguments: [String], _ context: inout Context) -> ExitCode {
        if arguments == ["--all"] {
            return remove(settings.map(\.setting.key), &context)
        }
        if arguments.isEmpty { return context.usage("reset needs KEY... or --all") }
        if let option = arguments.first(where: { $0.hasPrefix("--") }) {
            return context.usage("reset does not take '\(option)' with keys")
        }
        return remove(arguments, &context)
    }

    func path(_ arguments: [String], _ context: inout Context) -> ExitCode {
        guard arguments.isEmpty else { return context.usage("path takes no arguments") }
        guard let target = writableStore else {
            return context.fail(.notFound, "there are no settings")
        }
        let location = (target as? FileStore)?.url.path ?? target.location
        guard let location else {
            return context.fail(.notFound, "the settings are not kept in a file")
        }
        context.print(location)
        return .success
    }

    // MARK: - Helpers

    /// The store the settings are written to: a layered store's writable layer.
    var writableStore: (any Storable)? {
        guard let store = settings.first?.setting.settingStore else { return nil }
        return (store as? LayeredStore)?.writable ?? store
    }

    /// Removes the stored values of `keys`, after checking that every key is declared.
    private func remove(_ keys: [String], _ context: inout Context) -> ExitCode {
        var targets: [any AnyStoredSetting] = []
        for key in keys {
            guard let (_, setting) = setting(named: key) else { return notFound(key, &context) }
            targets.append(setting)
        }
        for setting in targets {
            do {
                try setting.settingStore.setValue(nil, forKey: setting.key)
            } catch {
                return failedWrite(error, of: setting, &context)
            }
            noteOverride(of: setting, &context)
        }
        return .success
    }

    /// Reports a write the store refused. A value the store cannot hold (NaN or an infinity
    /// in a JSON file, a string XML cannot carry, a value too large or too deep) is a bad value:
    /// exit status 65, with the store's own message, which names the key, the expected type and
    /// the file. Any other failure (a folder that cannot be written, a full disk, a file that
    /// does not parse) is an I/O error: 74.
    func failedWrite(
        _ error: any Error, of setting: any AnyStoredSetting, _ context: inout Context
    ) -> ExitCode {
        if var problem = error as? StorageError,
            [.typeMismatch, .dataCorrupted, .encodingFailed, .tooLarge, .nestingTooDeep, .invalidKey].contains(
                problem.code)
        {
            problem = problem.adding(key: setting.key)
            problem.message = (problem.message.map { $0 + "; " } ?? "") + "the change was not saved"
            return context.fail(.dataError, problem.description)
        }
        return context.fail(.ioError, StorageError(.io, wrapping: error, key: setting.key).description)
    }

    private func notFound(_ key: String, _ context: inout Context) -> ExitCode {
        context.fail(.notFound, "no setting '\(key)'; '\(toolName) \(commandName) list' shows them all")
    }

    /// Notes when a layer above the written one still decides the value, or some of its
    /// fields.
    func noteOverride(of setting: any AnyStoredSetting, _ context: inout Context) {
        guard let layered = setting.settingStore as? LayeredStore else { return }
        if let top = layered.layer(holding: setting.key), top !== layered.writable,
            let origin = layered.origin(forKey: setting.key)
        {
            context.error += "\(toolName) \(commandName): note: \(setting.key) is overridden by \(origin)\n"
            return
        }
        for field in layered.fieldOrigins(forKey: setting.key) {
            context.error +=
                "\(toolName) \(commandName): note: \(setting.key).\(field.path) is overridden by \(field.origin)\n"
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
