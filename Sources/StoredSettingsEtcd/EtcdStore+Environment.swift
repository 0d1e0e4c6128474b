import Foundation
import StoredSettings

extension EtcdStore.Configuration {
    /// The variables ``setTLSOptions(fromEnvironment:prefix:)`` reads for `prefix`:
    /// `PREFIX_CA_FILE`, `PREFIX_CERT_FILE`, `PREFIX_KEY_FILE` and `PREFIX_SERVER_NAME`.
    public static func tlsVariables(prefix: String) -> [String] {
        ["CA_FILE", "CERT_FILE", "KEY_FILE", "SERVER_NAME"].map { "\(prefix)_\($0)" }
    }

    /// Sets ``trustedCAFile``, ``clientCertificateFile``, ``clientKeyFile`` and ``serverName``
    /// from `PREFIX_CA_FILE`, `PREFIX_CERT_FILE`, `PREFIX_KEY_FILE` and `PREFIX_SERVER_NAME`
    /// in `environment` (`stored` uses `STORED_ETCD`, daybook `DAYBOOK_ETCD`), as a command-line
    /// tool takes the paths etcdctl takes as `--cacert`, `--cert` and `--key`. An unset or
    /// empty variable leaves its option as it was.
    public mutating func setTLSOptions(fromEnvironment environment: [String: String], prefix: String) {
        let values = Self.tlsVariables(prefix: prefix).map { environment[$0].flatMap { $0.isEmpty ? nil : $0 } }
        trustedCAFile = values[0] ?? trustedCAFile
        clientCertificateFile = values[1] ?? clientCertificateFile
        clientKeyFile = values[2] ?? clientKeyFile
        serverName = values[3] ?? serverName
    }
}

extension EtcdStore.Configuration {
    /// The variables ``setTimings(fromEnvironment:prefix:)`` reads for `prefix`:
    /// `PREFIX_CONNECTION_TIMEOUT`, `PREFIX_REQUEST_TIMEOUT` and
    /// `PREFIX_PROGRESS_NOTIFY_INTERVAL`.
    public static func timingVariables(prefix: String) -> [String] {
        ["CONNECTION_TIMEOUT", "REQUEST_TIMEOUT", "PROGRESS_NOTIFY_INTERVAL"].map { "\(prefix)_\($0)" }
    }

    /// Sets ``connectionTimeout``, ``requestTimeout`` and ``progressNotifyInterval`` from
    /// `PREFIX_CONNECTION_TIMEOUT`, `PREFIX_REQUEST_TIMEOUT` and
    /// `PREFIX_PROGRESS_NOTIFY_INTERVAL` in `environment`, each a positive number of seconds
    /// (the interval is the members' `--experimental-watch-progress-notify-interval`). An
    /// unset or empty variable leaves its option as it was.
    ///
    /// - Throws: `StorageError.Code.typeMismatch` naming the variable and quoting its value
    ///   when it is not a positive, finite number; nothing is set then.
    public mutating func setTimings(fromEnvironment environment: [String: String], prefix: String) throws {
        let seconds = try Self.timingVariables(prefix: prefix).map { name -> TimeInterval? in
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = TimeInterval(text), value > 0, value.isFinite else {
                throw StorageError(
                    .typeMismatch, location: "environment variable \(name)",
                    message: "expected a positive number of seconds, found \(text.debugDescription)")
            }
            return value
        }
        connectionTimeout = seconds[0] ?? connectionTimeout
        requestTimeout = seconds[1] ?? requestTimeout
        progressNotifyInterval = seconds[2] ?? progressNotifyInterval
    }
}
