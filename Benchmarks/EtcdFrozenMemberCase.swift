import Foundation
import StoredSettings
import StoredSettingsEtcd

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a change takes to reach `changes()` when the member the store's watch is on freezes
/// (SIGSTOP) right after the watch received an event, with the default configuration (no
/// progress notifications): the store's own probe must notice the silent member and move the
/// watch. Each sample runs from the SIGSTOP to the change's arrival, the change written with
/// `etcdctl` through the other members at once; a fresh cluster each sample. The target is the
/// probe's bound, 5 s of silence and 5 s for an answer, plus a second for the move to another
/// member and the catch-up read.
let frozenMemberCaseName = "etcd change delivered past a frozen watched member"

func runFrozenMemberCase(_ bench: Bench) throws {
    if let only = bench.only, !frozenMemberCaseName.contains(only) { return }
    guard let etcd = BenchmarkEtcd.onPath("etcd"), let etcdctl = BenchmarkEtcd.onPath("etcdctl") else { return }
    bench.progress(frozenMemberCaseName)
    var delays: [Double] = []
    for sample in 0..<(bench.quick ? 1 : 5) {
        let cluster = try BenchmarkCluster.start(etcd: etcd, size: 3)
        defer { cluster.stop() }
        let leader = try cluster.leader(etcdctl: etcdctl)
        let frozen = (leader + 1) % 3
        let others = cluster.endpoints.indices.filter { $0 != frozen }.map { cluster.endpoints[$0] }
        // The watch sits on the member asked first; everything else is the default.
        var configuration = try EtcdStore.Configuration(
            endpoints: [cluster.endpoints[frozen]] + others, prefix: "bench")
        configuration.racesFirstRead = false
        let store = try EtcdStore(configuration: configuration)
        let arrived = Lock<UInt64?>(nil)
        let signal = DispatchSemaphore(value: 0)
        let events = store.changes()
        let listener = Task {
            for await change in events where change.key == "frozen" {
                if change.value == .int(Int64(sample) * 2 + 1) {
                    arrived.withLock { $0 = monotonicNanoseconds() }
                }
                signal.signal()
            }
        }
        defer { listener.cancel() }
        try store.setValue(.int(Int64(sample) * 2), forKey: "frozen")
        guard signal.wait(timeout: .now() + .seconds(30)) == .success else {
            throw BenchmarkFailure("the store's own write never reached its stream")
        }
        let process = cluster.processes[frozen]
        kill(process.processIdentifier, SIGSTOP)
        let stopped = monotonicNanoseconds()
        defer { kill(process.processIdentifier, SIGCONT) }
        let put = Process()
        put.executableURL = URL(fileURLWithPath: etcdctl)
        put.arguments = ["--endpoints=\(others.joined(separator: ","))", "put", "bench/frozen", "\(sample * 2 + 1)"]
        put.standardOutput = FileHandle.nullDevice
        put.standardError = FileHandle.nullDevice
        try put.run()
        put.waitUntilExit()
        guard put.terminationStatus == 0 else { throw BenchmarkFailure("etcdctl put failed") }
        while true {
            if let arrival = arrived.value {
                delays.append(Double(arrival - stopped))
                break
            }
            guard signal.wait(timeout: .now() + .seconds(60)) == .success else {
                throw BenchmarkFailure("the change never reached the stream past the frozen member")
            }
        }
    }
    bench.addLatency(LatencyResult(name: frozenMemberCaseName, samples: delays, target: 11_000_000_000))
}
