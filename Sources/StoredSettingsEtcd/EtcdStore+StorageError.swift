import StoredSettings

extension EtcdStore {
    /// The `StorageError` of a failed request, naming `key` (when there is one) and the
    /// endpoints.
    static func storageError(_ failure: EtcdClient.Failure, key: String?, configuration: Configuration) -> StorageError
    {
        let path = "etcd \(configuration.endpointList)"
        switch failure {
        case .unreachable(let problem):
            return StorageError(
                .io, key: key, location: path, message: "no endpoint answered, nothing was changed (\(problem))")
        case .noAnswer(let problem):
            return StorageError(
                .outcomeUnknown, key: key, location: path,
                message: "no answer; the write may or may not have been committed (\(problem))")
        case .invalidAnswer(let problem):
            return StorageError(.io, key: key, location: path, message: problem)
        case .tls(let problem):
            return StorageError(
                .tlsFailed, key: key, location: path, message: "TLS failed, nothing was sent (\(problem))")
        case .refused(let code, let message):
            if message.contains("request is too large") || message.contains("larger than max")
                || message.contains("too many operations")
            {
                return StorageError(
                    .tooLarge, key: key, location: path, message: "etcd refused the request: \(message)")
            }
            if configuration.user == nil && message.contains("user name is empty") {
                return StorageError(
                    .authenticationFailed, key: key, location: path,
                    message: "etcd has authentication enabled and no user is configured (\(message))")
            }
            if code == 16 || message.contains("permission denied") || message.contains("authentication") {
                let user = configuration.user.map { " for user '\($0)'" } ?? ""
                return StorageError(
                    .authenticationFailed, key: key, location: path,
                    message: "etcd refused the request\(user): \(message)")
            }
            return StorageError(.io, key: key, location: path, message: "etcd refused the request: \(message)")
        }
    }
}
