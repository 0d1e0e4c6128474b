import Foundation
import StoredSettings

extension EtcdStore.Configuration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The endpoints, prefix, user and limits, with the password shown as `<redacted>`: what
    /// `print(_:)` and string interpolation show.
    public var description: String {
        var parts = ["endpoints: \(endpoints.map(\.absoluteString))", "prefix: \(prefix)"]
        if let user { parts.append("user: \(user)") }
        if password != nil { parts.append("password: <redacted>") }
        parts.append("connectionTimeout: \(connectionTimeout)")
        parts.append("requestTimeout: \(requestTimeout)")
        parts.append("maximumRequestBytes: \(maximumRequestBytes)")
        parts.append("maximumReconnectDelay: \(maximumReconnectDelay)")
        if let progressNotifyInterval { parts.append("progressNotifyInterval: \(progressNotifyInterval)") }
        if let trustedCAFile { parts.append("trustedCAFile: \(trustedCAFile)") }
        if let clientCertificateFile { parts.append("clientCertificateFile: \(clientCertificateFile)") }
        if let clientKeyFile { parts.append("clientKeyFile: \(clientKeyFile)") }
        if let serverName { parts.append("serverName: \(serverName)") }
        if let snapshotCacheFile { parts.append("snapshotCacheFile: \(snapshotCacheFile.path)") }
        return "EtcdStore.Configuration(" + parts.joined(separator: ", ") + ")"
    }

    /// The same as ``description``, with the password redacted: what `debugPrint(_:)` and
    /// `String(reflecting:)` show.
    public var debugDescription: String { description }

    /// The stored properties, with the password's value replaced by `<redacted>`: what `dump(_:)`,
    /// the debugger and `Mirror(reflecting:)` see.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "endpoints": endpoints,
                "prefix": prefix,
                "user": user as Any,
                "password": (password == nil ? nil : "<redacted>") as String? as Any,
                "connectionTimeout": connectionTimeout,
                "requestTimeout": requestTimeout,
                "maximumRequestBytes": maximumRequestBytes,
                "maximumReconnectDelay": maximumReconnectDelay,
                "progressNotifyInterval": progressNotifyInterval as Any,
                "trustedCAFile": trustedCAFile as Any,
                "clientCertificateFile": clientCertificateFile as Any,
                "clientKeyFile": clientKeyFile as Any,
                "serverName": serverName as Any,
                "snapshotCacheFile": snapshotCacheFile as Any,
            ],
            displayStyle: .struct
        )
    }
}
