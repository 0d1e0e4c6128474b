public import StoredSettings

extension StorageError.Code {
    /// etcd refused the configured user's name or password, or the user may not read or
    /// write the prefix. The message names the user, never the password.
    public static let authenticationFailed = StorageError.Code("authenticationFailed")

    /// A write reached etcd and no answer came (or etcd answered that its proposal timed
    /// out): it may or may not have been committed, and it may still be committed later, when
    /// the member it reached resumes. It was not sent again. Read the key to learn what etcd
    /// holds; unlike ``StorageError/Code/io`` from a write, this does not mean nothing changed.
    public static let outcomeUnknown = StorageError.Code("outcomeUnknown")
}
