import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsEtcd

extension TargetStore {
    /// Opens the ``EtcdStore`` an `etcd://HOST:PORT[,HOST:PORT…]/PREFIX` target names.
    ///
    /// The user and password come from `STORED_ETCD_USER` and `STORED_ETCD_PASSWORD` (never
    /// from the command line, where other users of the machine could read them);
    /// `STORED_ETCD_CONNECTION_TIMEOUT` sets how many seconds opening waits for an endpoint,
    /// `STORED_ETCD_REQUEST_TIMEOUT` how many one request may take, and
    /// `STORED_ETCD_PROGRESS_NOTIFY_INTERVAL` the members' progress-notification interval
    /// (``EtcdStore/Configuration/setTimings(fromEnvironment:prefix:)``). `STORED_ETCD_CA_FILE`, `STORED_ETCD_CERT_FILE`, `STORED_ETCD_KEY_FILE`
    /// and `STORED_ETCD_SERVER_NAME` set the TLS options of an `etcds://` target.
    ///
    /// - Throws: ``CommandFailure``: a usage error (64) quoting the address as typed when it
    ///   does not parse; bad data (65) naming the variable and its value when a seconds
    ///   variable is not a positive number; otherwise the store's error naming the endpoints (74 when none answered).
    static func openEtcd(_ address: String, environment: [String: String]) throws -> EtcdStore {
        var configuration: EtcdStore.Configuration
        do {
            configuration = try EtcdStore.Configuration(address: address)
        } catch let error as StorageError {
            throw CommandFailure(
                .usage,
                "stored: \(UsageError("'\(address)' is not an etcd target: \(error.message ?? error.code.name)", verb: nil))"
            )
        }
        do {
            try configuration.setTimings(fromEnvironment: environment, prefix: "STORED_ETCD")
            configuration.user = environment["STORED_ETCD_USER"]
            configuration.password = environment["STORED_ETCD_PASSWORD"]
            configuration.setTLSOptions(fromEnvironment: environment, prefix: "STORED_ETCD")
            return try EtcdStore(configuration: configuration)
        } catch let error as StorageError {
            throw CommandFailure(error)
        }
    }

    /// Sets every key of `values` on etcd in one transaction (``EtcdStore/setValues(_:)``),
    /// after checking every value encodes: etcd holds all of them or none.
    static func mergeIntoEtcd(_ values: [String: StoredValue?], store: EtcdStore) throws {
        for (key, value) in values {
            try StorageError.validate(key: key, location: store.location)
            if let value {
                do {
                    _ = try StoredValueJSON.data(from: value)
                } catch let error as StorageError {
                    throw error.adding(key: key, location: store.location)
                }
            }
        }
        try store.setValues(values)
    }
}
