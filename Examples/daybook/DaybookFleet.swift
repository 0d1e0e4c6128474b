import StoredSettings
import StoredSettingsEtcd

/// Fleet-wide defaults for daybook from an etcd cluster, opt-in: when `DAYBOOK_ETCD` holds an
/// `etcd://HOST:PORT[,HOST:PORT…]/PREFIX` address, daybook reads the settings under that
/// prefix below its own file (the file's values win; writes go to the file).
enum DaybookFleet {
    /// The variable naming the cluster: daybook's own, no setting.
    static let variable = "DAYBOOK_ETCD"

    /// The etcd layer `DAYBOOK_ETCD` names, or none when it is unset or empty.
    ///
    /// - Throws: `StorageError` (`.io` naming the endpoints when none answers).
    static func layers(environment: [String: String]) throws -> [any Storable] {
        guard let address = environment[variable], !address.isEmpty else { return [] }
        return [try EtcdStore(configuration: EtcdStore.Configuration(address: address))]
    }
}
