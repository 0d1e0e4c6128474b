public import Foundation
import StoredSettings

extension EtcdStore {
    /// Where an ``EtcdStore`` finds its cluster, under which prefix it keeps its settings, how
    /// it signs in, and how long it waits.
    ///
    /// ```swift
    /// let configuration = try EtcdStore.Configuration(
    ///     endpoints: ["http://10.0.0.1:2379", "http://10.0.0.2:2379"],
    ///     prefix: "daybook"
    /// )
    /// ```
    ///
    /// Thread-safety: a value type; `Sendable`.
    public struct Configuration: Sendable, Equatable {
        /// The members' client URLs (`http://HOST:PORT` or `https://HOST:PORT`), tried in order;
        /// a request that cannot reach one goes on to the next.
        public var endpoints: [URL]
        /// The application's namespace: setting `pageSize` is the etcd key `<prefix>/pageSize`.
        /// Without leading or trailing slashes.
        public var prefix: String
        /// The etcd user to authenticate as, when the cluster has authentication enabled.
        public var user: String?
        /// The user's password. Never part of an error message or a description.
        public var password: String?
        /// How long opening the store tries to reach an endpoint before it throws
        /// `StorageError.Code.io`, in seconds. Default 5. A value set after creation outside
        /// ``timeoutRange`` (or NaN) is clamped into it where it is used.
        public var connectionTimeout: TimeInterval
        /// How long one request to one endpoint may take, in seconds, from connecting to the
        /// last byte of the answer, a TLS handshake included, however the member paces its
        /// bytes. Default 5. A value set after creation outside
        /// ``timeoutRange`` (or NaN) is clamped into it where it is used.
        public var requestTimeout: TimeInterval
        /// The largest request the store sends, in bytes: a write whose key and value need more
        /// throws `StorageError.Code.tooLarge`. Default 1,572,864 (1.5 MiB), etcd's default
        /// `--max-request-bytes`; set it to the cluster's value.
        public var maximumRequestBytes: Int
        /// The longest pause between two reconnection attempts of the watch, in seconds; the
        /// pause starts at 0.05 s and doubles up to this. Default 2. Clamped into
        /// ``timeoutRange`` where it is used, like the timeouts.
        public var maximumReconnectDelay: TimeInterval
        /// The cluster's `--experimental-watch-progress-notify-interval`, in seconds, or `nil`
        /// (the default) when it is not known. The watch asks every member for progress
        /// notifications; when this is set, a watch that receives nothing, not even a
        /// notification, for ``silentIntervals`` times this is counted as lost (a frozen member,
        /// a path that stopped answering) and resumes on another endpoint. Clamped into
        /// ``timeoutRange`` where it is used, like the timeouts.
        public var progressNotifyInterval: TimeInterval?
        /// Whether a read made while no endpoint is known to answer (a store's first) goes to
        /// every endpoint at once, the first answer winning: `true` (the default), so a process
        /// opened while the first-listed member is frozen does not wait out its timeout. `false`
        /// asks the endpoints in the listed order, for a fleet that lists a member to prefer
        /// (a local one) first. Writes are never sent to more than one endpoint.
        public var racesFirstRead = true
        /// A PEM file of the CA certificates that sign the members' certificates (etcd's
        /// `--trusted-ca-file`, `etcdctl --cacert`), trusted instead of the system's for
        /// `https` endpoints; `nil` (the default) trusts the system's. Linux only: on Apple
        /// platforms, where `https` goes through `URLSession`, opening a store with any of the
        /// four TLS options set throws `StorageError.Code.invalidArgument`.
        public var trustedCAFile: String?
        /// A PEM file of the client certificate (and its chain) presented to members started
        /// with `--client-cert-auth` (`etcdctl --cert`); with ``clientKeyFile``. Linux only.
        public var clientCertificateFile: String?
        /// The PEM file of ``clientCertificateFile``'s private key (`etcdctl --key`). Linux only.
        public var clientKeyFile: String?
        /// The name every member's certificate must carry (a DNS name or IP address), sent as
        /// the TLS server name; `nil` (the default) checks each endpoint's own host. Linux only.
        public var serverName: String?
        /// A file where the store keeps its last snapshot of the prefix (the values and the
        /// etcd revision, as JSON), so that it can open while no endpoint answers; `nil` (the
        /// default) keeps none, and opening then throws as without it.
        ///
        /// After each open and each change the watch or a write brings, the snapshot is saved
        /// off the caller's path (the open's before it returns), only when it changed: a
        /// temporary file in the same folder (created, mode 0700, when missing) is written and
        /// `fsync`ed, `rename`d over the file, and the folder `fsync`ed, so a crash leaves the
        /// old or the new whole cache. When an open's first round reaches no endpoint, the store
        /// serves the cached values instead of throwing: ``EtcdStore/disconnectedSince`` is
        /// set, the fact is reported to `StorageErrorReporter`, writes throw
        /// `StorageError.Code.io` and change nothing, and the watch keeps trying; once an
        /// endpoint answers, the store reads the prefix, delivers the keys that differ through
        /// ``EtcdStore/changes()`` and saves the cache again. A missing file opens as without
        /// it; a file that does not parse, or holds another prefix's or other endpoints'
        /// snapshot, is reported (`StorageError.Code.dataCorrupted`) and ignored. The file holds
        /// every value under the prefix in clear: keep it where the settings file is.
        public var snapshotCacheFile: URL?

        /// How many progress-notification intervals of silence end a watch: 3 (etcd sends one
        /// every one or two intervals when no event came).
        public static let silentIntervals = 3.0

        /// The timeouts and delays a configuration accepts, in seconds: more than 0 (0 and
        /// negative values would mean no limit to the socket calls) and at most one day.
        public static let timeoutRange: ClosedRange<TimeInterval> = 0.001...86_400

        /// etcd's default `--max-request-bytes`: 1.5 MiB.
        public static let defaultMaximumRequestBytes = 1_572_864

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - endpoints: Client URLs; a bare `HOST:PORT` is read as `http://HOST:PORT`.
        ///   - prefix: The key prefix; leading and trailing slashes are dropped.
        ///   - user: The etcd user, or `nil` when authentication is off.
        ///   - password: The user's password.
        ///   - connectionTimeout: Seconds opening waits for an endpoint.
        ///   - requestTimeout: Seconds one request may take.
        ///   - maximumRequestBytes: The request size limit, in bytes.
        ///   - maximumReconnectDelay: The longest pause between reconnection attempts, in seconds.
        ///   - progressNotifyInterval: The cluster's progress-notification interval, in seconds.
        ///   - trustedCAFile: The CA certificates' PEM file, for `https` endpoints.
        ///   - clientCertificateFile: The client certificate's PEM file.
        ///   - clientKeyFile: The client key's PEM file.
        ///   - serverName: The name members' certificates must carry.
        ///   - snapshotCacheFile: The file of the last snapshot, served while no endpoint answers.
        /// - Throws: `StorageError.Code.invalidKey` for an empty prefix or one with control
        ///   characters; `StorageError.Code.io` for no endpoint, or one that is not an
        ///   `http`/`https` URL with a host and a port (the scheme in any case; it is kept in
        ///   lower case); `StorageError.Code.invalidArgument` naming the field for a timeout
        ///   or delay that is NaN, infinite or outside ``timeoutRange``.
        public init(
            endpoints: [String],
            prefix: String,
            user: String? = nil,
            password: String? = nil,
            connectionTimeout: TimeInterval = 5,
            requestTimeout: TimeInterval = 5,
            maximumRequestBytes: Int = Configuration.defaultMaximumRequestBytes,
            maximumReconnectDelay: TimeInterval = 2,
            progressNotifyInterval: TimeInterval? = nil,
            trustedCAFile: String? = nil,
            clientCertificateFile: String? = nil,
            clientKeyFile: String? = nil,
            serverName: String? = nil,
            snapshotCacheFile: URL? = nil
        ) throws {
            let trimmed = prefix.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            try StorageError.validate(key: trimmed, location: "etcd")
            guard !endpoints.isEmpty else {
                throw StorageError(.io, location: "etcd", message: "no endpoint given")
            }
            for (name, seconds) in [
                ("connectionTimeout", connectionTimeout), ("requestTimeout", requestTimeout),
                ("maximumReconnectDelay", maximumReconnectDelay),
                ("progressNotifyInterval", progressNotifyInterval ?? 1),
            ] where !Self.timeoutRange.contains(seconds) {
                throw StorageError(
                    .invalidArgument, location: "etcd",
                    message:
                        "\(name) is \(seconds) s; it must be from \(Self.timeoutRange.lowerBound) to \(Self.timeoutRange.upperBound) s"
                )
            }
            self.endpoints = try endpoints.map(Self.endpointURL)
            self.prefix = trimmed
            self.user = user
            self.password = password
            self.connectionTimeout = connectionTimeout
            self.requestTimeout = requestTimeout
            self.maximumRequestBytes = maximumRequestBytes
            self.maximumReconnectDelay = maximumReconnectDelay
            self.progressNotifyInterval = progressNotifyInterval
            self.trustedCAFile = trustedCAFile
            self.clientCertificateFile = clientCertificateFile
            self.clientKeyFile = clientKeyFile
            self.serverName = serverName
            self.snapshotCacheFile = snapshotCacheFile
        }

        /// Reads an `etcd://HOST:PORT[,HOST:PORT…]/PREFIX` address (the `stored` tool's target);
        /// `etcds://` means `https` endpoints.
        ///
        /// - Throws: `StorageError.Code.invalidArgument` when `address` is not of that form,
        ///   quoting the address and the part that is not `HOST:PORT`;
        ///   `StorageError.Code.invalidKey` for an empty prefix.
        public init(address: String) throws {
            let scheme: String
            let rest: Substring
            if address.hasPrefix("etcd://") {
                (scheme, rest) = ("http", address.dropFirst("etcd://".count))
            } else if address.hasPrefix("etcds://") {
                (scheme, rest) = ("https", address.dropFirst("etcds://".count))
            } else {
                throw StorageError(
                    .invalidArgument, location: address, message: "an etcd address starts with etcd:// or etcds://")
            }
            guard let slash = rest.firstIndex(of: "/") else {
                throw StorageError(
                    .invalidKey, location: address, message: "the address names no prefix (etcd://HOST:PORT/PREFIX)")
            }
            let hosts = rest[..<slash].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            // Checked here, so the error quotes what was typed rather than the URL made of it.
            for host in hosts where (try? Self.endpointURL("\(scheme)://\(host)")) == nil {
                throw StorageError(
                    .invalidArgument, location: address,
                    message: host.isEmpty
                        ? "the address names no HOST:PORT (etcd://HOST:PORT[,HOST:PORT…]/PREFIX)"
                        : "'\(host)' is not HOST:PORT (etcd://HOST:PORT[,HOST:PORT…]/PREFIX)")
            }
            try self.init(
                endpoints: hosts.map { "\(scheme)://\($0)" }, prefix: String(rest[rest.index(after: slash)...]))
        }

        /// `http://HOST:PORT` for `HOST:PORT`; the URL itself, its scheme in lower case, for an
        /// `http` or `https` URL (a path is kept: requests go to `PATH/v3/...`).
        static func endpointURL(_ text: String) throws -> URL {
            let spelled = text.contains("://") ? text : "http://" + text
            guard var components = URLComponents(string: spelled), let scheme = components.scheme?.lowercased(),
                scheme == "http" || scheme == "https", components.host?.isEmpty == false, components.port != nil
            else {
                throw StorageError(
                    .io, location: text, message: "an etcd endpoint is http://HOST:PORT or https://HOST:PORT")
            }
            components.scheme = scheme
            guard let url = components.url else {
                throw StorageError(
                    .io, location: text, message: "an etcd endpoint is http://HOST:PORT or https://HOST:PORT")
            }
            return url
        }

        /// This configuration with every timeout and delay clamped into ``timeoutRange``: what
        /// a store runs with, so no value set after creation reaches a socket call unchecked.
        func clamped() -> Configuration {
            var copy = self
            copy.connectionTimeout = Self.usable(connectionTimeout)
            copy.requestTimeout = Self.usable(requestTimeout)
            copy.maximumReconnectDelay = Self.usable(maximumReconnectDelay)
            copy.progressNotifyInterval = progressNotifyInterval.map(Self.usable)
            return copy
        }

        /// How long a watch may receive nothing before it is counted as lost: ``silentIntervals``
        /// progress intervals, or `nil` (no limit) when the interval is not known.
        var watchSilenceLimit: TimeInterval? {
            progressNotifyInterval.map { Self.usable($0 * Self.silentIntervals) }
        }

        /// Refuses the TLS options where `URLSession` carries TLS (`https` on Apple platforms):
        /// the store does not load CA files or client certificates into it there.
        ///
        /// - Throws: `StorageError.Code.invalidArgument` naming the options set.
        func checkURLSessionTLS() throws {
            let set = [
                ("trustedCAFile", trustedCAFile), ("clientCertificateFile", clientCertificateFile),
                ("clientKeyFile", clientKeyFile), ("serverName", serverName),
            ].filter { $0.1 != nil }.map(\.0)
            guard !set.isEmpty else { return }
            throw StorageError(
                .invalidArgument, location: "etcd \(endpointList)",
                message:
                    "\(set.joined(separator: ", ")) need Linux: on this platform https endpoints use the system's trust settings through URLSession"
            )
        }

        /// Whether `url` is a TLS endpoint, whatever the case of its scheme.
        static func isTLS(_ url: URL) -> Bool {
            url.scheme?.lowercased() == "https"
        }

        /// `seconds` clamped into ``timeoutRange``; NaN counts as the default, 5 s.
        static func usable(_ seconds: TimeInterval) -> TimeInterval {
            seconds.isNaN ? 5 : min(max(seconds, timeoutRange.lowerBound), timeoutRange.upperBound)
        }

        /// The endpoints as `HOST:PORT`, comma-separated: how messages name the cluster.
        var endpointList: String {
            endpoints.map(Self.hostAndPort).joined(separator: ",")
        }

        /// `HOST:PORT` of `url` (with `https://` kept for a TLS endpoint).
        static func hostAndPort(_ url: URL) -> String {
            let host = url.host ?? "?"
            let port = url.port.map { ":\($0)" } ?? ""
            return (isTLS(url) ? "https://" : "") + host + port
        }
    }
}
