import StoredSettings

/// What an `EnvironmentStore` created with declarations works out once, at creation: each
/// declared key's own variable, the variables of the fields of structured settings, the
/// secret files of declared keys, and the problems to report.
struct EnvironmentDeclarations: EnvironmentDeclaring {
    /// A set variable that overrides one field of a structured setting.
    struct FieldVariable: Sendable, Equatable {
        /// The field names below the key, outermost first.
        var path: [String]
        /// The variable's full name.
        var variable: String
        /// The variable's text.
        var text: String
    }

    /// Each declared key's own variable (`APP_LAYOUT` for `layout`).
    var ownVariables: Set<String> = []
    /// The field variables that are set, by key, shorter paths first, then by name.
    var fieldVariables: [String: [FieldVariable]] = [:]
    /// The secret files of declared keys, by the key's own variable; read at creation.
    var secretFiles: [String: EnvironmentStore.SecretFileOutcome] = [:]
    /// Variables that serve a declared setting without being a key's own variable (field
    /// variables, `NAME_FILE` companions): left out of `EnvironmentStore.keys()`.
    var servingVariables: Set<String> = []
    /// Variables of declared keys, secret files' `NAME_FILE` variables and field variables
    /// whose value is not valid UTF-8; secret files that cannot be read; conflicts.
    var errors: [StorageError] = []
    /// Secret files every user may read, empty secret files, unknown variables, ambiguous
    /// field variables.
    var warnings: [StorageError] = []

    /// Works out the variables of `declarations` among `variables` (the set prefixed ones, by
    /// name); `names` holds every prefixed name (empty and undecodable ones too), `prefix` ends
    /// with `_` (or is empty).
    init(
        prefix: String, variables: [String: String], names: Set<String>, undecodable: Set<String>,
        declarations: [SettingDeclaration], otherVariables: Set<String> = [],
        emptyValues: EnvironmentStore.EmptyValues = .unset
    ) {
        // With no variable of the prefix there is nothing to map, read or report: the usual
        // start-up of a tool pays for no declaration here.
        guard !names.isEmpty || !undecodable.isEmpty else { return }
        var owners: [(variable: String, declaration: SettingDeclaration)] = []
        for declaration in declarations {
            guard let words = KeyWords.screamingSnakeCase(declaration.key) else { continue }
            owners.append((prefix + words, declaration))
            ownVariables.insert(prefix + words)
        }
        var companions: Set<String> = []
        for (variable, declaration) in owners {
            let companion = variable + "_FILE"
            if !ownVariables.contains(companion) { companions.insert(companion) }
            // The variable holds bytes that are not UTF-8, and no repeat of its name holds text.
            if undecodable.contains(variable), variables[variable] == nil {
                errors.append(EnvironmentStore.notUTF8Error(key: declaration.key, variable: variable))
            }
            guard secretFiles[variable] == nil,
                let outcome = EnvironmentStore.secretFileOutcome(
                    forVariable: variable, key: declaration.key, variables: variables, undecodable: undecodable,
                    ownVariables: ownVariables, isSecret: declaration.isSecret)
            else { continue }
            secretFiles[variable] = outcome
            switch outcome {
            case .failed(let error):
                errors.append(error)
            case .read(let text, let path, let fileVariable, let othersMayRead):
                if text.isEmpty, emptyValues == .unset {
                    warnings.append(
                        EnvironmentStore.emptyFileWarning(
                            key: declaration.key, path: path, variable: fileVariable, isSecret: declaration.isSecret))
                }
                if declaration.isSecret, othersMayRead {
                    warnings.append(
                        EnvironmentStore.insecureFileWarning(key: declaration.key, path: path, variable: fileVariable))
                }
            }
        }
        let fieldNames = resolveFields(owners: owners, variables: variables, undecodable: undecodable)
        servingVariables = companions.union(fieldNames)
        // With no prefix every variable of the process would be "unknown": no check then.
        guard !prefix.isEmpty, !names.isEmpty else { return }
        let known = ownVariables.union(servingVariables)
        // Hints compare the words after the prefix, which every name shares.
        let knownWords = known.union(otherVariables).filter { $0.hasPrefix(prefix) }.map {
            String($0.dropFirst(prefix.count))
        }.sorted()
        for name in names.sorted() where !known.contains(name) && !otherVariables.contains(name) {
            let hint = closestMatch(to: String(name.dropFirst(prefix.count)), among: knownWords)
            warnings.append(Self.unknownVariableWarning(name, hint: hint.map { prefix + $0 }))
        }
    }

    /// Assigns each field variable to one field, by the documented rule, and returns every
    /// field variable's name (assigned or ambiguous).
    private mutating func resolveFields(
        owners: [(variable: String, declaration: SettingDeclaration)], variables: [String: String],
        undecodable: Set<String>
    ) -> Set<String> {
        struct Candidate {
            var key: String
            var path: [String]
            var keyWords: Int
        }
        var candidates: [String: [Candidate]] = [:]
        for (variable, declaration) in owners {
            guard case .structure(let fields) = declaration.shape else { continue }
            let keyWords = KeyWords.words(of: declaration.key)?.count ?? 0
            for path in Self.fieldPaths(fields) {
                guard let name = Self.fieldVariable(variable, path: path) else { continue }
                candidates[name, default: []].append(Candidate(key: declaration.key, path: path, keyWords: keyWords))
            }
        }
        var names: Set<String> = []
        for (name, found) in candidates.sorted(by: { $0.key < $1.key }) {
            // A declared key's own variable is that key's, never a field's.
            guard !ownVariables.contains(name) else { continue }
            names.insert(name)
            // Among keys, the longest (in words) wins: its fields are the more specific.
            let longest = found.map(\.keyWords).max() ?? 0
            let winners = found.filter { $0.keyWords == longest }
            let isSet = variables[name] != nil || undecodable.contains(name)
            guard winners.count == 1, let winner = winners.first else {
                if isSet {
                    let fields = winners.map { "'\($0.key)' field '\($0.path.joined(separator: "."))'" }
                    warnings.append(
                        StorageError(
                            .ambiguousVariable, location: "environment variable \(name)",
                            message: "the variable names \(fields.joined(separator: " and ")); "
                                + "it is not used: set the whole setting as JSON text instead"))
                }
                continue
            }
            if let text = variables[name] {
                fieldVariables[winner.key, default: []].append(
                    FieldVariable(path: winner.path, variable: name, text: text))
            } else if undecodable.contains(name) {
                errors.append(EnvironmentStore.notUTF8Error(key: winner.key, variable: name, codingPath: winner.path))
            }
        }
        for key in fieldVariables.keys {
            fieldVariables[key]?.sort {
                $0.path.count != $1.path.count ? $0.path.count < $1.path.count : $0.variable < $1.variable
            }
        }
        return names
    }

    /// The variable that gives the field at `path` of the key whose own variable is
    /// `variable`: `APP_LAYOUT_WRAP_COLUMN` for `wrapColumn` of `APP_LAYOUT`; `nil` when a field
    /// name has characters no variable name can hold.
    static func fieldVariable(_ variable: String, path: [String]) -> String? {
        let words = path.compactMap(KeyWords.screamingSnakeCase)
        guard words.count == path.count else { return nil }
        return variable + "_" + words.joined(separator: "_")
    }

    /// Every path to a field of a structure, its inner structures' fields included, each
    /// structure before its fields, in name order.
    static func fieldPaths(_ fields: [String: SettingDeclaration.Shape]) -> [[String]] {
        fields.sorted { $0.key < $1.key }.flatMap { name, shape -> [[String]] in
            guard case .structure(let inner) = shape else { return [[name]] }
            return [[name]] + fieldPaths(inner).map { [name] + $0 }
        }
    }

    /// The warning for a prefixed variable that no declared setting reads.
    static func unknownVariableWarning(_ name: String, hint: String?) -> StorageError {
        StorageError(
            .unknownKey, location: "environment variable \(name)",
            message: "no setting reads this variable" + (hint.map { " (did you mean \($0)?)" } ?? "")
        )
    }
}
