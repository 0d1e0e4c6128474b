import Foundation
import StoredSettings

extension SettingsCommand {
    /// `config check [FILE]`: reads a settings file as the tool would (the store's reader, its
    /// size limit and its declarations) and writes nothing.
    ///
    /// Every problem is one line on standard error naming the setting and, in a JSON file, the
    /// line and column of its value: text that does not parse (the parser stops at the first
    /// problem), a key given twice, a value that does not read as its setting's type; a key no
    /// setting declares is a warning (for the tool's own file, the declared `LayeredStore` that
    /// read it has warned of it already). FILE is the tool's own file by default; its extension
    /// chooses the format (`.plist` a property list, else JSON). Exit 0 when the file reads as
    /// declared (or there is none at the default place, so the defaults apply), 65 for a
    /// problem, 66 when FILE does not exist, 74 when it cannot be read.
    func check(_ arguments: [String], _ context: inout Context) -> ExitCode {
        guard arguments.count <= 1, arguments.first?.hasPrefix("-") != true else {
            return context.usage(
                arguments.first?.hasPrefix("-") == true
                    ? "check does not take '\(arguments[0])'" : "check takes at most one file")
        }
        let own = writableStore
        let ownPath = (own as? FileStore)?.url.path ?? (own as? UnreadableFile)?.path
        guard let path = arguments.first ?? ownPath else {
            return context.fail(.notFound, "the settings are not kept in a file; name one: check FILE")
        }
        let shown = abbreviatingHome(path)
        let named = FileStore.Format(pathExtension: URL(fileURLWithPath: path).pathExtension)
        let format = arguments.isEmpty ? (own as? FileStore)?.format ?? named : named
        let maximumSize = (own as? FileStore)?.options.maximumFileSize ?? FileStore.Options.defaultMaximumFileSize
        let values: [String: StoredValue]
        let source: StoredValueJSON.SourceText
        do {
            guard let (data, _) = try FileSystem.readFile(atPath: path, maximumSize: maximumSize) else {
                guard arguments.isEmpty else { return context.fail(.noInput, "\(shown): no such file") }
                context.print("\(shown): no file; every setting takes its default")
                return .success
            }
            (values, _, source) = try FileStore.decode(data, format: format)
        } catch let problem as StorageError {
            return context.fail(.forFailure(problem.code), problem.adding(location: "file \(shown)").description)
        } catch {
            return context.fail(.ioError, "\(shown): \(error)")
        }
        var problems = source.duplicateKeys.map { duplicate in
            duplicate.warning(location: "file \(shown), line \(duplicate.laterLine), column \(duplicate.laterColumn)")
        }
        for (_, setting) in settings {
            guard let value = values[setting.key], var problem = setting.decodingProblem(of: value) else { continue }
            problem.location = Self.place(of: setting.key, in: shown, source)
            problems.append(problem)
        }
        // A declared LayeredStore already warned of its own file's unknown keys when it read it.
        let layered = settings.first?.setting.settingStore as? LayeredStore
        let warnedAlready = arguments.isEmpty && layered?.declarations.isEmpty == false
        let declared = Set(settings.map(\.setting.key)).union(LayeredStore.reservedKeys)
        for key in values.keys.sorted() where !declared.contains(key) && !warnedAlready {
            let hint = closestMatch(to: key, among: declared).map { " (did you mean '\($0)'?)" } ?? ""
            let warning = StorageError(
                .notFound, key: key, location: Self.place(of: key, in: shown, source),
                message: "no declared setting uses this key\(hint)")
            context.error += "\(toolName) \(commandName): warning: \(warning)\n"
        }
        for problem in problems {
            context.error += "\(toolName) \(commandName): \(problem)\n"
        }
        guard problems.isEmpty else { return .dataError }
        context.print("\(shown): every setting reads as declared")
        return .success
    }

    /// `file PATH, line L, column C` for the value of `key` (`path` as shown, `~` for the home
    /// folder); without the line for a file whose
    /// source positions are not kept (a property list).
    private static func place(of key: String, in path: String, _ source: StoredValueJSON.SourceText) -> String {
        guard let (line, column) = source.position(ofValueFor: key) else { return "file \(path)" }
        return "file \(path), line \(line), column \(column)"
    }
}
