import Foundation

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
