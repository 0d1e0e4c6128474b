import Foundation
import StoredSettings
import StoredSettingsTestSupport
import TestHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One or more `etcd` processes on free loopback ports, each with a temporary data folder,
/// started for one test and stopped by PID (SIGTERM, then `waitpid`).
///
/// Readiness is waited for on events: the member's log line saying it serves clients (read
/// from its standard error through a pipe), then a bounded number of `/health` requests, each
/// started when the previous one answered.
final class EtcdCluster: Sendable {
    struct Member: Sendable {
        let name: String
        let clientPort: Int
        let peerPort: Int
        /// Whether the member serves clients over TLS (`https`).
        var secure = false
        var clientURL: String { "\(secure ? "https" : "http")://127.0.0.1:\(clientPort)" }
        /// `127.0.0.1:PORT`, or `https://127.0.0.1:PORT` for a TLS member.
        var endpoint: String { secure ? clientURL : "127.0.0.1:\(clientPort)" }
    }

    /// How the members serve clients over TLS.
    enum Security: Sendable {
        /// Plain HTTP.
        case none
        /// TLS with the test certificates' server certificate.
        case tls
        /// TLS, and every client must present a certificate the test CA signed
        /// (`--client-cert-auth`).
        case clientCertificates
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Every member's `--experimental-watch-progress-notify-interval`, in seconds.
    static let progressNotifyInterval: TimeInterval = 0.5

    let members: [Member]
    let folder: URL
    let security: Security
    /// The certificates a TLS cluster's members and clients use.
    let certificates: TestCertificates?
    private let processes = Lock<[String: pid_t]>([:])
    /// How many ``ProcessSlots/etcdMembers`` the cluster holds: `members.count` until shut down.
    private let slots: Lock<Int>
    /// Each member's log so far, and `<name> exited` keys once a log reached its end.
    private let logs = AwaitableState<[String: String]>([:])

    /// `etcd` on the PATH, or a failure saying how to install it.
    static func executable() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/etcd"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Failure(
            description:
                "etcd is not installed: the etcd tests need it (apt-get install etcd-server etcd-client; .ci/run installs it)"
        )
    }

    /// Starts `size` members forming one cluster and waits until each serves clients; starts
    /// again on other ports when a port picked was taken meanwhile (at most 3 times).
    static func start(size: Int = 1, security: Security = .none) async throws -> EtcdCluster {
        var attempt = 1
        while true {
            do {
                return try await EtcdCluster(size: size, security: security)
            } catch let failure as Failure where attempt < 3 && failure.description.contains("address already in use") {
                attempt += 1
            }
        }
    }

    private init(size: Int, security: Security) async throws {
        // Slots first, ports after: a port picked before a long wait may be taken by then.
        try await ProcessSlots.etcdMembers.acquire(size)
        slots = Lock(size)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("etcd-test-\(UUID().uuidString)")
        self.folder = folder
        self.security = security
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if case .none = security {
                certificates = nil
            } else {
                let certificateFolder = folder.appendingPathComponent("certificates")
                try FileManager.default.createDirectory(at: certificateFolder, withIntermediateDirectories: true)
                certificates = try await TestCertificates.make(in: certificateFolder)
            }
            let secure = certificates != nil
            let ports = try Self.freePorts(2 * size)
            members = (0..<size).map { index in
                Member(name: "m\(index)", clientPort: ports[2 * index], peerPort: ports[2 * index + 1], secure: secure)
            }
        } catch {
            ProcessSlots.etcdMembers.release(size)
            throw error
        }
        do {
            for member in members { try launch(member, fresh: true) }
            for member in members { try await waitUntilReady(member) }
        } catch {
            shutDown()
            throw error
        }
    }

    /// Every member's client endpoint, `HOST:PORT`, comma-separated.
    var endpoints: [String] { members.map(\.endpoint) }

    /// `etcd://HOST:PORT[,…]/prefix` (`etcds://` for TLS members).
    func address(prefix: String) -> String {
        let hosts = members.map { "127.0.0.1:\($0.clientPort)" }.joined(separator: ",")
        return "\(certificates == nil ? "etcd" : "etcds")://\(hosts)/\(prefix)"
    }

    private var initialCluster: String {
        members.map { "\($0.name)=http://127.0.0.1:\($0.peerPort)" }.joined(separator: ",")
    }

    private func launch(_ member: Member, fresh: Bool) throws {
        let arguments =
            [
                try Self.executable(),
                "--name", member.name,
                "--data-dir", folder.appendingPathComponent(member.name).path,
                "--listen-client-urls", member.clientURL, "--advertise-client-urls", member.clientURL,
                "--listen-peer-urls", "http://127.0.0.1:\(member.peerPort)",
                "--initial-advertise-peer-urls", "http://127.0.0.1:\(member.peerPort)",
                "--initial-cluster", initialCluster,
                "--initial-cluster-state", "new",
                "--initial-cluster-token", folder.lastPathComponent,
                // Short, so a store's watch deadline (a few intervals) notices a frozen member in seconds.
                "--experimental-watch-progress-notify-interval", "\(Int(Self.progressNotifyInterval * 1000))ms",
            ] + serverSecurityArguments
        let (readEnd, writeEnd) = try CloseOnExecPipe.make()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        close(writeEnd)
        guard code == 0 else {
            close(readEnd)
            throw Failure(description: "cannot start etcd: \(String(cString: strerror(code)))")
        }
        processes.withLock { $0[member.name] = pid }
        // Each launch's drain thread writes only while its launch is the member's latest: the
        // thread of a stopped process may still be reading its last lines after a restart.
        let run = UUID().uuidString
        logs.withLock {
            $0[member.name] = ""
            $0[member.name + " exited"] = nil
            $0[member.name + " run"] = run
        }
        // Drains the member's log for as long as it runs, so it never blocks on a full pipe.
        let name = member.name
        Thread.detachNewThread { [logs] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                if count > 0 {
                    let text = String(decoding: buffer[0..<count], as: UTF8.self)
                    logs.withLock { if $0[name + " run"] == run { $0[name, default: ""] += text } }
                    continue
                }
                if count < 0, errno == EINTR { continue }
                break
            }
            close(readEnd)
            logs.withLock { if $0[name + " run"] == run { $0[name + " exited"] = "" } }
        }
    }

    /// The TLS arguments of every member: its certificate, and the CA clients must be signed by.
    private var serverSecurityArguments: [String] {
        guard let certificates else { return [] }
        let files = ["--cert-file", certificates.serverCertificateFile, "--key-file", certificates.serverKeyFile]
        guard case .clientCertificates = security else { return files }
        return files + ["--trusted-ca-file", certificates.caFile, "--client-cert-auth"]
    }

    /// What `etcdctl` needs to reach a TLS member: the CA, and the client certificate.
    var clientSecurityArguments: [String] {
        guard let certificates else { return [] }
        return [
            "--cacert", certificates.caFile, "--cert", certificates.clientCertificateFile, "--key",
            certificates.clientKeyFile,
        ]
    }

    /// The member's log so far.
    func log(of member: Member) -> String {
        logs.value[member.name] ?? ""
    }

    /// Waits for `serving … client requests` in the log, then for `/health` to say true.
    private func waitUntilReady(_ member: Member, user: String? = nil) async throws {
        let name = member.name
        let logs = await self.logs.wait {
            $0[name]?.contains("client requests on") == true || $0[name + " exited"] != nil
        }
        if logs[name + " exited"] != nil {
            throw Failure(description: "etcd \(name) exited: \(log(of: member).suffix(2000))")
        }
        try await waitUntilHealthy(member, user: user)
    }

    /// Waits for `/health` to say true: a bounded number of checks, each started when the
    /// previous one answered.
    func waitUntilHealthy(_ member: Member, user: String? = nil) async throws {
        for _ in 0..<50 {
            if await Self.isHealthy(member, user: user, security: clientSecurityArguments) { return }
        }
        throw Failure(description: "etcd \(member.name) never became healthy: \(log(of: member).suffix(2000))")
    }

    /// Whether `etcdctl endpoint health` says the member is healthy. (`etcdctl`, not
    /// `URLSession`: on Linux a connection closed before an answer stops the process.)
    /// `user` is `NAME:PASSWORD` once authentication is on.
    static func isHealthy(_ member: Member, user: String? = nil, security: [String] = []) async -> Bool {
        let credentials = (user.map { ["--user=\($0)"] } ?? []) + security
        let run = try? await EtcdProgram.run(
            "etcdctl", ["--endpoints=\(member.endpoint)"] + credentials + ["endpoint", "health"],
            environment: ["ETCDCTL_API": "3"])
        return run?.exitCode == 0
    }

    /// Stops `member` with `signal` and waits for it to exit (a frozen member is thawed first,
    /// or it would never act on the signal).
    func stop(_ member: Member, signal: Int32 = SIGTERM) {
        guard let pid = processes.withLock({ $0.removeValue(forKey: member.name) }) else { return }
        kill(pid, signal)
        kill(pid, SIGCONT)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    /// Freezes `member` (SIGSTOP): its sockets stay open and it answers nothing, until ``thaw(_:)``.
    ///
    /// Returns once every thread of the member has stopped: `kill` returns before that, and on
    /// a busy machine the member could meanwhile still act on a request sent after it.
    func freeze(_ member: Member) {
        guard let pid = processes.withLock({ $0[member.name] }) else { return }
        kill(pid, SIGSTOP)
        var status: Int32 = 0
        while waitpid(pid, &status, WUNTRACED) < 0, errno == EINTR {}
    }

    /// Lets a frozen member run again (SIGCONT).
    func thaw(_ member: Member) {
        if let pid = processes.withLock({ $0[member.name] }) { kill(pid, SIGCONT) }
    }

    /// The member that is the cluster's leader now, as `etcdctl endpoint status` reports it.
    func leader() async throws -> Member {
        let status = try await etcdctl(["endpoint", "status", "-w", "json"])
        let entries = try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [[String: Any]] ?? []
        for entry in entries {
            guard let fields = entry["Status"] as? [String: Any],
                let header = fields["header"] as? [String: Any],
                let id = header["member_id"] as? NSNumber, id == fields["leader"] as? NSNumber,
                let member = members.first(where: { $0.endpoint == entry["Endpoint"] as? String })
            else { continue }
            return member
        }
        throw Failure(description: "no member is the leader: \(status)")
    }

    /// Waits until `member` reports no leader (after its peers stopped, within a few election
    /// timeouts): a bounded number of `etcdctl endpoint status` checks, each started when the
    /// previous one answered.
    func waitUntilLeaderless(_ member: Member) async throws {
        for _ in 0..<200 {
            let status = try await etcdctl(["endpoint", "status", "-w", "json"], through: [member])
            let entries = try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [[String: Any]] ?? []
            let leader = (entries.first?["Status"] as? [String: Any])?["leader"] as? NSNumber
            if leader == nil || leader == 0 { return }
        }
        throw Failure(description: "etcd \(member.name) kept a leader")
    }

    /// Starts a stopped member again on its data folder and waits until it serves clients
    /// (`user`, `NAME:PASSWORD`, signs the health check in once authentication is on).
    func restart(_ member: Member, user: String? = nil) async throws {
        try launch(member, fresh: false)
        try await waitUntilReady(member, user: user)
    }

    /// Stops every member, removes the data folders and gives the cluster's slots back.
    /// Every frozen member is thawed first: a member stopping gracefully can wait for a frozen
    /// peer, and a test that failed early may not have thawed it.
    func shutDown() {
        for member in members { thaw(member) }
        for member in members { stop(member) }
        try? FileManager.default.removeItem(at: folder)
        ProcessSlots.etcdMembers.release(
            slots.withLock { slots in
                defer { slots = 0 }
                return slots
            })
    }

    deinit { shutDown() }

    /// A TCP port on 127.0.0.1 that was free a moment ago: bound with port 0, read, closed.
    static func freePort() throws -> Int {
        try freePorts(1)[0]
    }

    /// `count` different TCP ports on 127.0.0.1 that were free a moment ago: all bound with port
    /// 0 at once, read, then closed. Ports taken one at a time can repeat (the kernel may hand
    /// a closed port out again), which gave a cluster two members with one URL.
    static func freePorts(_ count: Int) throws -> [Int] {
        var sockets: [(Int32, UInt16)] = []
        defer { for (socketFD, _) in sockets { close(socketFD) } }
        for _ in 0..<count { sockets.append(try FakeHTTPServer.listeningSocket()) }
        return sockets.map { Int($0.1) }
    }

    /// Runs `etcdctl` against the cluster to its end; its standard output.
    func etcdctl(_ arguments: [String], through chosen: [Member]? = nil) async throws -> String {
        let list = (chosen ?? members).map(\.endpoint).joined(separator: ",")
        let run = try await EtcdProgram.run(
            "etcdctl", ["--endpoints=\(list)"] + clientSecurityArguments + arguments, environment: ["ETCDCTL_API": "3"])
        guard run.exitCode == 0 else {
            throw Failure(description: "etcdctl \(arguments.joined(separator: " ")) failed: \(run.errors)")
        }
        return run.output
    }
}
