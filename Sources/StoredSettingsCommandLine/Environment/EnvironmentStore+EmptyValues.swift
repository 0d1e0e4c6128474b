extension EnvironmentStore {
    /// What a variable that is set but empty (`APP_EDITOR=`) means.
    ///
    /// By default an empty variable counts as unset, since `APP_EDITOR= tool` is how a shell
    /// user turns a variable off for one command; tools whose users blank values choose ``empty``.
    public enum EmptyValues: Sendable, Hashable {
        /// An empty variable counts as unset: the lower layers or the default apply. The default.
        /// An empty secret file (or one holding only a line break) counts the same way.
        case unset
        /// An empty variable holds the empty text, `.string("")`: a `String` setting reads `""`,
        /// a list the empty list, and a type empty text does not spell (an `Int`) reports a type
        /// mismatch naming the variable, with no fallback to the lower layers. An empty secret
        /// file (or one holding only a line break) counts the same way.
        case empty
    }
}
