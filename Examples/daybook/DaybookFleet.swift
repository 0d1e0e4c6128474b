import Foundation
import StoredSettings
import StoredSettingsEtcd

/// Fleet-wide defaults for daybook from an etcd cluster, opt-in: when `DAYBOOK_ETCD` holds an
/// `etcd://HOST:PORT[,HOST:PORT…]/PREFIX` address, daybook reads the settings under that
/// prefix below its own file (the file's values win; writes go to the file). An `etcds://`
/// address takes its TLS options from `DAYBOOK_ETCD_CA_FILE`, `DAYBOOK_ETCD_CERT_FILE`,
/// `DAYBOOK_ETCD_KEY_FILE` and `DAYBOOK_ETCD_SERVER_NAME`; `DAYBOOK_ETCD_CONNECTION_TIMEOUT`,
/// `DAYBOOK_ETCD_REQUEST_TIMEOUT` and `DAYBOOK_ETCD_PROGRESS_NOTIFY_INTERVAL` set its timings
/// (seconds; the interval is the members' progress-notification interval, which lets a watch
/// notice a frozen member). The last fleet values seen are kept
/// in `etcd-cache.json` beside the settings file, and serve (with a warning) while no member
/// answers.
enum DaybookFleet {
    /// The variable naming the cluster: daybook's own, no setting.
    static let variable = "DAYBOOK_ETCD"

    /// Every variable daybook reads for the fleet itself, never settings: ``variable`` and the
    /// TLS options.
    static let variables = Set(
        [variable] + EtcdStore.Configuration.tlsVariables(prefix: variable)
            + EtcdStore.Configuration.timingVariables(prefix: variable))

    /// The cluster `DAYBOOK_ETCD` names, or none when it is unset or empty.
    ///
    /// - Throws: `StorageError` for a value that is not an etcd address, or a timing that is no
    ///   positive number of seconds: bad input (65), found before anything is connected to.
    static func configuration(environment: [String: String]) throws -> EtcdStore.Configuration? {
        guard let address = environment[variable], !address.isEmpty else { return nil }
        var configuration = try EtcdStore.Configuration(address: address)
        configuration.setTLSOptions(fromEnvironment: environment, prefix: variable)
        try configuration.setTimings(fromEnvironment: environment, prefix: variable)
        // Without a settings folder (no home), no cache: the fleet must answer, as before.
        configuration.snapshotCacheFile = try? FileStore.defaultURL(application: "daybook", environment: environment)
            .deletingLastPathComponent().appendingPathComponent("etcd-cache.json")
        return configuration
    }

    /// The etcd layer of `configuration`, or none without one.
    ///
    /// - Throws: `StorageError` (`.io` naming the endpoints when none answers).
    static func layers(configuration: EtcdStore.Configuration?) throws -> [any Storable] {
        guard let configuration else { return [] }
        return [try EtcdStore(configuration: configuration)]
    }
}
