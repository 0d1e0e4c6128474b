extension EnvironmentStore {
    /// What a variable that is set but empty (`APP_EDITOR=`) means.
    ///
    /// Shells cannot unset a variable for one command the way they set one (`APP_EDITOR= tool`
    /// is the short way to "turn it off"), so by default an empty variable counts as unset.
    /// Tools whose users blank values on purpose choose ``empty``.
    public enum EmptyValues: Sendable, Hashable {
        /// An empty variable counts as unset: the lower layers or the default apply. The default.
        /// An empty secret file (or one holding only a line break) counts the same way.
        case unset
        /// An empty variable holds the empty text, `.string("")`: a `String` (or `String?`)
        /// setting reads `""`, a list (`[T]`, `Set<T>`) the empty list; any type that empty
        /// text does not spell (an `Int`, a `Date`) reports a type mismatch naming the
        /// variable, and the lower layers' value is not used. An empty secret file (or one
        /// holding only a line break) counts the same way.
        case empty
    }
}
