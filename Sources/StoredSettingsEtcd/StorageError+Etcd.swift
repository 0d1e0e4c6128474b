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

    /// The TLS handshake with every member that could be reached failed, so nothing was sent:
    /// a member's certificate is not trusted (by ``EtcdStore/Configuration-swift.struct/trustedCAFile``
    /// or the system), does not name the endpoint (or
    /// ``EtcdStore/Configuration-swift.struct/serverName``), or the member requires a client
    /// certificate or refused the one given. The message names the cause. Reported at once:
    /// trying again would fail the same way.
    public static let tlsFailed = StorageError.Code("tlsFailed")
}
