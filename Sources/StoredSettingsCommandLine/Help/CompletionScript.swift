import Foundation
import StoredSettings

/// A shell completion script for a tool, written from its settings' declarations.
///
/// Every shell runs the same walk over the words before the cursor: options that take a value
/// skip it, `--` ends the options, and the first other word is the command. At the top, it
/// offers the options (a flag with its `--no-` form) and the commands; after an option that
/// takes a value, that setting's values when they are named (an enum's cases); after `config`,
/// its subcommands, then the keys `get`, `set`, `unset` and `reset` take, a key's values after
/// `set KEY`, and files after `check`.
struct CompletionScript {
    /// The tool's name, as typed.
    var toolName: String
    /// Options that take no value: `--auto-reload`, `--no-auto-reload`, `--help`.
    var flags: [String] = ["--help", "-h"]
    /// Options that take a value, with the values to offer (none for free text).
    var valued: [(name: String, values: [String])] = []
    /// The tool's commands, `config` among them.
    var commands: [String]
    /// The name `config` is mounted under, or `nil`.
    var configCommand: String?
    /// Every declared key, with its named values.
    var keys: [(key: String, values: [String])] = []

    /// The option that prints a script, and the shells it takes.
    static let option = "--generate-completion-script"

    init(group: any SettingsGroup.Type, toolName: String, commands: [String], configCommand: String?) {
        self.toolName = toolName
        self.configCommand = configCommand
        self.commands = commands + (configCommand.map { [$0] } ?? [])
        let parser = CommandLineStore.parser(for: group.declarations())
        for (_, setting) in group.declaredSettings() {
            let values = setting.valueNames ?? []
            keys.append((setting.key, values))
            guard let option = parser.option(forKey: setting.key) else { continue }
            if option.isFlag {
                flags += ["--\(option.name)", "--no-\(option.name)"]
                continue
            }
            valued.append(("--\(option.name)", values))
            if case .structure(let shapes) = option.shape {
                for path in EnvironmentDeclarations.fieldPaths(shapes) {
                    let spelled = path.map { KeyWords.kebabCase($0) ?? $0 }.joined(separator: ".")
                    valued.append(("--\(option.name).\(spelled)", []))
                }
            }
        }
        valued.append(("--set", keys.map { $0.key + "=" }))
        valued.append((Self.option, CompletionShell.allCases.map(\.rawValue)))
    }

    /// The subcommands of `config`, with the options each takes.
    private static var subcommands: [(name: String, options: [String], takesKeys: Bool)] {
        SettingsCommand.subcommandList.map { subcommand in
            // An option's name without its value's placeholder: `--draft`, not `--draft V`.
            let options = subcommand.options.map { String($0.name.prefix { $0 != " " }) }
            return (subcommand.name, options.filter { $0.hasPrefix("-") }, subcommand.takesKeys)
        }
    }

    /// Values of the options of `config`'s subcommands that take one.
    private static let subcommandValued = [("--draft", JSONSchemaDraft.allCases.map(\.rawValue))]

    /// The script for `shell`.
    func text(for shell: CompletionShell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    /// The name of the script's functions: `_daybook`, with characters a function name cannot
    /// hold as `_`.
    private var function: String {
        "_" + String(toolName.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    /// Shell words in single quotes, as bash and zsh read them.
    private static func quoted(_ words: [String]) -> String {
        words.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
    }

    /// `case` branches that offer each option's values, in bash's and zsh's syntax; with no
    /// space after a value ending in `=` (`--set key=`), where its text follows.
    private static func valueBranches(
        _ valued: [(name: String, values: [String])], offer: String, shell: CompletionShell
    ) -> String {
        valued.map { name, values in
            var command = "\(offer) \(quoted(values));"
            if values.contains(where: { $0.hasSuffix("=") }) {
                command =
                    shell == .bash
                    ? command + " compopt -o nospace 2>/dev/null;" : "compadd -S '' -- \(quoted(values));"
            }
            return "        \(quoted([name]))) \(command) return ;;\n"
        }.joined()
    }

    /// The branches that offer a key's values after `config set KEY`.
    private func keyValueBranches(offer: String) -> String {
        keys.filter { !$0.values.isEmpty }.map { key, values in
            "                \(Self.quoted([key]))) \(offer) \(Self.quoted(values)) ;;\n"
        }.joined()
    }

    /// The branches that offer a subcommand's keys and options.
    private func subcommandBranches(offer: String, files: String) -> String {
        Self.subcommands.map { name, options, takesKeys in
            var body =
                takesKeys ? "\(offer) \(Self.quoted(keys.map(\.key) + options))" : "\(offer) \(Self.quoted(options))"
            if name == "check" { body = files }
            if name == "set" {
                body = """
                    if ((n == 1)); then \(offer) \(Self.quoted(keys.map(\.key)))
                                elif ((n == 2)); then
                                    case ${rest[2]} in
                    \(keyValueBranches(offer: offer))                    esac
                                fi
                    """
            }
            return "            \(Self.quoted([name]))) \(body) ;;\n"
        }.joined()
    }

    private var valuedPattern: String {
        (valued.map(\.name)).map { Self.quoted([$0]) }.joined(separator: "|")
    }

    private var bash: String {
        let offer = "\(function)_offer"
        return """
            # bash completion for \(toolName), written from its settings' declarations.
            # Load it with: source <(\(toolName) \(Self.option) bash)
            \(offer)() {
                local word
                for word in "$@"; do
                    if [[ $word == "$cur"* ]]; then COMPREPLY+=("$word"); fi
                done
            }
            \(function)() {
                local cur=${COMP_WORDS[COMP_CWORD]} word command= index=1
                local -a rest=()
                COMPREPLY=()
                while ((index < COMP_CWORD)); do
                    word=${COMP_WORDS[index]}
                    ((index++))
                    if [[ -n $command ]]; then rest+=("$word"); continue; fi
                    case $word in
                        --) return ;;
                        =) ((index++)) ;;
                        \(valuedPattern)) [[ ${COMP_WORDS[index]} == = ]] || ((index++)) ;;
                        -*) ;;
                        *) command=$word ;;
                    esac
                done
                if [[ -n $command && $command == \(Self.quoted([configCommand ?? ""])) ]]; then
                    local n=${#rest[@]}
                    rest=("" "${rest[@]}")
                    if ((n == 0)); then \(offer) \(Self.quoted(Self.subcommands.map(\.name) + ["--help"])); return; fi
                    case ${COMP_WORDS[COMP_CWORD-1]} in
            \(Self.valueBranches(Self.subcommandValued, offer: offer, shell: .bash))        esac
                    case ${rest[1]} in
            \(subcommandBranches(offer: offer, files: #"COMPREPLY=($(compgen -f -- "$cur"))"#))        esac
                    return
                fi
                if [[ -n $command ]]; then
                    if [[ $cur == -* ]]; then \(offer) \(Self.quoted(flags + valued.map(\.name))); fi
                    return
                fi
                local option=${COMP_WORDS[COMP_CWORD-1]}
                if [[ $option == = ]]; then option=${COMP_WORDS[COMP_CWORD-2]}; fi
                case $option in
            \(Self.valueBranches(valued, offer: offer, shell: .bash))    esac
                \(offer) \(Self.quoted(flags + valued.map(\.name) + commands))
            }
            complete -F \(function) \(Self.quoted([toolName]))

            """
    }

    private var zsh: String {
        let offer = "compadd --"
        return """
            #compdef \(toolName)
            # zsh completion for \(toolName), written from its settings' declarations. Install it as
            # `_\(toolName)` in a folder on $fpath, or load it with:
            #   source <(\(toolName) \(Self.option) zsh)
            \(function)() {
                local word command= index=2 n
                local -a rest
                while ((index < CURRENT)); do
                    word=${words[index]}
                    ((index++))
                    if [[ -n $command ]]; then rest+=("$word"); continue; fi
                    case $word in
                        --) return 0 ;;
                        \(valuedPattern)) ((index++)) ;;
                        -*) ;;
                        *) command=$word ;;
                    esac
                done
                if [[ -n $command && $command == \(Self.quoted([configCommand ?? ""])) ]]; then
                    n=${#rest}
                    if ((n == 0)); then \(offer) \(Self.quoted(Self.subcommands.map(\.name) + ["--help"])); return; fi
                    case ${words[CURRENT-1]} in
            \(Self.valueBranches(Self.subcommandValued, offer: offer, shell: .zsh))        esac
                    case ${rest[1]} in
            \(subcommandBranches(offer: offer, files: "_files"))        esac
                    return
                fi
                if [[ -n $command ]]; then
                    if [[ $PREFIX == -* ]]; then \(offer) \(Self.quoted(flags + valued.map(\.name))); fi
                    return
                fi
                case ${words[CURRENT-1]} in
            \(Self.valueBranches(valued, offer: offer, shell: .zsh))    esac
                \(offer) \(Self.quoted(flags + valued.map(\.name) + commands))
            }
            if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
                \(function) "$@"
            else
                compdef \(function) \(Self.quoted([toolName]))
            fi

            """
    }

    /// Words in single quotes, as fish reads them (a backslash escapes `\` and `'` there).
    private static func fishQuoted(_ words: [String]) -> String {
        words.map {
            "'" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }.joined(separator: " ")
    }

    private var fish: String {
        let q = Self.fishQuoted
        let valueCases = { (valued: [(name: String, values: [String])]) in
            valued.map {
                "            case \(q([$0.name]))\n                printf '%s\\n' \(q($0.values))\n                return\n"
            }
            .joined()
        }
        let keyValues = keys.filter { !$0.values.isEmpty }.map {
            "                    case \(q([$0.key]))\n                        printf '%s\\n' \(q($0.values))\n"
        }.joined()
        let subcommandCases = Self.subcommands.map { name, options, takesKeys in
            var body = "printf '%s\\n' \(q((takesKeys ? keys.map(\.key) : []) + options))"
            if name == "check" { body = "__fish_complete_path (commandline -ct)" }
            if name == "set" {
                body = """
                    if test (count $rest) -eq 1
                                        printf '%s\\n' \(q(keys.map(\.key)))
                                    else if test (count $rest) -eq 2
                                        switch $rest[2]
                    \(keyValues)                    end
                                    end
                    """
            }
            return "            case \(q([name]))\n                \(body)\n"
        }.joined()
        return """
            # fish completion for \(toolName), written from its settings' declarations. Install it as
            # ~/.config/fish/completions/\(toolName).fish, or load it with:
            #   \(toolName) \(Self.option) fish | source
            function \(function)
                set -l words (commandline -opc)
                set -e words[1]
                set -l command
                set -l rest
                set -l skip 0
                for word in $words
                    if test -n "$command"
                        set -a rest $word
                    else if test $skip -eq 1
                        set skip 0
                    else if test "$word" = --
                        return
                    else if contains -- $word \(q(valued.map(\.name)))
                        set skip 1
                    else if not string match -q -- '-*' $word
                        set command $word
                    end
                end
                if test -n "$command" -a "$command" = \(q([configCommand ?? ""]))
                    if test (count $rest) -eq 0
                        printf '%s\\n' \(q(Self.subcommands.map(\.name) + ["--help"]))
                        return
                    end
                    switch "$words[-1]"
            \(valueCases(Self.subcommandValued))        end
                    switch $rest[1]
            \(subcommandCases)        end
                    return
                end
                if test -n "$command"
                    string match -q -- '-*' (commandline -ct); and printf '%s\\n' \(q(flags + valued.map(\.name)))
                    return
                end
                switch "$words[-1]"
            \(valueCases(valued))    end
                printf '%s\\n' \(q(flags + valued.map(\.name) + commands))
            end
            complete -c \(q([toolName])) -f -a '(\(function))'

            """
    }
}
