import Foundation
import StoredSettings
import StoredSettingsEtcd

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long writes pause when the leader of a three-member cluster is killed, beside `etcdctl`
/// in the same run: an `EtcdStore` (default options) and a loop of `etcdctl put` with a 3 s
/// command timeout each write as fast as they can, the leader gets SIGKILL, and each side's
/// pause is the time from the kill to the return of its first write sent after it that succeeds
/// (a write that fails is tried again at once, as a caller would). A fresh cluster each round; the ratio is
/// the median of the rounds' ratios.
let leaderKillCaseName = "EtcdStore write pause after a leader kill"

func runLeaderKillCase(_ bench: Bench) throws {
    let baselineName = "etcdctl put pause (--command-timeout=3s)"
    if let only = bench.only, !leaderKillCaseName.contains(only) { return }
    guard let etcd = BenchmarkEtcd.onPath("etcd"), let etcdctl = BenchmarkEtcd.onPath("etcdctl") else {
        bench.unavailable(leaderKillCaseName, baseline: baselineName, target: 1, reason: "etcd is not installed")
        return
    }
    bench.progress(leaderKillCaseName)
    var storePauses: [Double] = []
    var etcdctlPauses: [Double] = []
    for _ in 0..<(bench.quick ? 1 : 5) {
        let cluster = try BenchmarkCluster.start(etcd: etcd, size: 3)
        defer { cluster.stop() }
        let store = try EtcdStore(configuration: .init(endpoints: cluster.endpoints, prefix: "bench"))
        let leader = try cluster.leader(etcdctl: etcdctl)
        let storeWriter = PausedWriter { number in try store.setValue(.int(Int64(number)), forKey: "pause") }
        let etcdctlWriter = PausedWriter { number in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: etcdctl)
            process.arguments = [
                "--endpoints=\(cluster.endpoints.joined(separator: ","))", "--command-timeout=3s", "put",
                "bench/etcdctl-pause", "\(number)",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchmarkFailure("etcdctl put failed") }
        }
        try storeWriter.waitForSuccesses(after: 0, count: 3)
        try etcdctlWriter.waitForSuccesses(after: 0, count: 3)
        kill(cluster.processes[leader].processIdentifier, SIGKILL)
        let killed = monotonicNanoseconds()
        try storeWriter.waitForSuccesses(after: killed, count: 1)
        try etcdctlWriter.waitForSuccesses(after: killed, count: 1)
        storeWriter.stop()
        etcdctlWriter.stop()
        storePauses.append(Double(storeWriter.firstSuccess(after: killed) - killed))
        etcdctlPauses.append(Double(etcdctlWriter.firstSuccess(after: killed) - killed))
    }
    let ratios = zip(storePauses, etcdctlPauses).map { $0 / $1 }
    bench.add(
        ComparisonResult(
            name: leaderKillCaseName, baseline: baselineName,
            subject: Timing(storePauses, iterationsPerSample: 1),
            baselineTiming: Timing(etcdctlPauses, iterationsPerSample: 1),
            ratio: Timing(ratios, iterationsPerSample: 1).median, target: 1,
            note: "from the SIGKILL to the return of each side's first write sent after it that succeeds"))
}

/// A thread that writes as fast as it can, trying again at once after a failure, and records
/// when each write that succeeded was sent and returned (`CLOCK_MONOTONIC`). Only writes sent
/// after a moment count as after it: one etcd committed before the kill may return after it.
private final class PausedWriter: Sendable {
    private let successes = Lock<[(sent: UInt64, returned: UInt64)]>([])
    private let stopped = Lock(false)
    private let finished = DispatchSemaphore(value: 0)

    init(write: @escaping @Sendable (Int) throws -> Void) {
        Thread.detachNewThread { [self] in
            var number = 0
            while !stopped.value {
                number += 1
                let sent = monotonicNanoseconds()
                guard (try? write(number)) != nil else { continue }
                let returned = monotonicNanoseconds()
                successes.withLock { $0.append((sent, returned)) }
            }
            finished.signal()
        }
    }

    /// Waits until `count` writes sent after `moment` succeeded; a minute without them is an
    /// error.
    func waitForSuccesses(after moment: UInt64, count: Int) throws {
        for _ in 0..<6_000 {
            if successes.withLock({ $0.filter { $0.sent > moment }.count }) >= count { return }
            usleep(10_000)
        }
        throw BenchmarkFailure("writes did not resume within a minute of the leader kill")
    }

    /// When the first write sent after `moment` returned successfully.
    func firstSuccess(after moment: UInt64) -> UInt64 {
        successes.withLock { $0.first { $0.sent > moment }?.returned ?? moment }
    }

    /// Ends the loop and waits for the write in progress.
    func stop() {
        stopped.withLock { $0 = true }
        finished.wait()
    }
}

/// A cluster of `etcd` members on loopback ports with scratch data folders.
struct BenchmarkCluster {
    let processes: [Process]
    let endpoints: [String]
    let folder: ScratchFolder

    static func start(etcd: String, size: Int) throws -> BenchmarkCluster {
        let folder = try ScratchFolder()
        let clients = try (0..<size).map { _ in "http://127.0.0.1:\(try freeLoopbackPort())" }
        let peers = try (0..<size).map { _ in "http://127.0.0.1:\(try freeLoopbackPort())" }
        let initial = (0..<size).map { "m\($0)=\(peers[$0])" }.joined(separator: ",")
        let processes = try (0..<size).map { index in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: etcd)
            process.arguments = [
                "--name", "m\(index)", "--data-dir", folder.file("m\(index)").path,
                "--listen-client-urls", clients[index], "--advertise-client-urls", clients[index],
                "--listen-peer-urls", peers[index], "--initial-advertise-peer-urls", peers[index],
                "--initial-cluster", initial, "--initial-cluster-token", folder.url.lastPathComponent,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        return BenchmarkCluster(
            processes: processes, endpoints: clients.map { String($0.dropFirst("http://".count)) }, folder: folder)
    }

    /// The index of the member that is the leader, from `etcdctl endpoint status`.
    func leader(etcdctl: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: etcdctl)
        process.arguments = ["--endpoints=\(endpoints.joined(separator: ","))", "endpoint", "status", "-w", "json"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let entries = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
        for entry in entries {
            guard let status = entry["Status"] as? [String: Any],
                let id = (status["header"] as? [String: Any])?["member_id"] as? NSNumber,
                id == status["leader"] as? NSNumber, let endpoint = entry["Endpoint"] as? String,
                let index = endpoints.firstIndex(of: endpoint)
            else { continue }
            return index
        }
        throw BenchmarkFailure("no member of the cluster is the leader")
    }

    /// SIGKILL every member still running, wait for each, remove the data folders.
    func stop() {
        for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for process in processes { process.waitUntilExit() }
        folder.remove()
    }
}
