public import StoredSettings

extension StorageError.Code {
    /// etcd refused the configured user's name or password, or the user may not read or
    /// write the prefix. The message names the user, never the password.
    public static let authenticationFailed = StorageError.Code("authenticationFailed")
}
