/// A shell that ``CommandLineSettings/completionScript(for:toolName:commands:configCommand:)``
/// writes a completion script for.
public enum CompletionShell: String, Sendable, CaseIterable {
    /// bash 4 or later: load the script with `source`, or install it where the
    /// bash-completion package looks (`~/.local/share/bash-completion/completions/TOOL`).
    case bash
    /// zsh: install the script as `_TOOL` in a folder on `$fpath`, or load it with `source`
    /// after `compinit`.
    case zsh
    /// fish 3: install the script as `~/.config/fish/completions/TOOL.fish`, or pipe it to
    /// `source`.
    case fish
}
