import Foundation
import StoredSettings
import StoredSettingsEtcd
import StoredSettingsTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// EtcdStore against its baselines, on an etcd member this run starts on loopback ports with
/// a scratch data folder and stops at the end: a snapshot read against an InMemoryStore read,
/// a write against a bare `URLSession` put of the same bytes, 1 KB and 1.5 MB writes against
/// `etcdctl put` of the same values, and the time from a write in another process to the
/// change arriving in this process's stream.
let etcdLatencyCaseName = "etcd change visible in another process"

func runEtcdCases(_ bench: Bench) throws {
    let names = [
        "@Stored<Bool> read, EtcdStore snapshot", "EtcdStore write", etcdLatencyCaseName,
        "EtcdStore write, 1 KB value", "EtcdStore write, 1.5 MB value",
    ]
    if let only = bench.only, !names.contains(where: { $0.contains(only) }) { return }
    guard let member = try BenchmarkEtcd.start() else {
        bench.unavailable(
            names[0], baseline: "@Stored<Bool> read, InMemoryStore", target: 1.5, reason: "etcd is not installed")
        return
    }
    defer { member.stop() }
    let store = try EtcdStore(
        configuration: .init(endpoints: [member.endpoint], prefix: "bench", connectionTimeout: 10))
    try store.setValue(.bool(true), forKey: flagKey)

    let memory = InMemoryStore([flagKey: .bool(true)])
    try bench.compare(
        storedBoolRead(names[0], Stored(flagKey, default: false, store: store)),
        against: storedBoolRead("@Stored<Bool> read, InMemoryStore", Stored(flagKey, default: false, store: memory)),
        target: 1.5
    )

    // Both sides send the same JSON bytes of a put of `bench/autoReload` to the same member.
    var flip = false
    let write = Workload(names[1], iterations: bench.quick ? 20 : 200) { n in
        for _ in 0..<n {
            flip.toggle()
            try store.setValue(.bool(flip), forKey: flagKey)
        }
    }
    let session = URLSession(configuration: .ephemeral)
    guard let url = URL(string: "http://\(member.endpoint)/v3/kv/put") else {
        throw BenchmarkFailure("bad endpoint \(member.endpoint)")
    }
    let body = try JSONSerialization.data(withJSONObject: [
        "key": Data("bench/\(flagKey)".utf8).base64EncodedString(), "value": Data("true".utf8).base64EncodedString(),
    ])
    let bare = Workload("bare URLSession put", iterations: bench.quick ? 20 : 200) { n in
        for _ in 0..<n {
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.httpBody = body
            let done = DispatchSemaphore(value: 0)
            session.dataTask(with: request) { _, _, _ in done.signal() }.resume()
            done.wait()
        }
    }
    try bench.compare(write, against: bare, target: 1.2, slow: true)
    for (label, size) in [("1 KB", 1_000), ("1.5 MB", 1_500_000)] {
        try runLargeValueWrite(bench, label: label, size: size, store: store, endpoint: member.endpoint)
    }
    try runEtcdLatency(bench, address: "etcd://\(member.endpoint)/bench", store: store)
}

/// A write of a `size`-byte value (a JSON string) against `etcdctl put` of the same bytes,
/// read from a file as its standard input: the whole command, as a script would run it.
private func runLargeValueWrite(_ bench: Bench, label: String, size: Int, store: EtcdStore, endpoint: String) throws {
    let name = "EtcdStore write, \(label) value"
    if let only = bench.only, !name.contains(only) { return }
    guard let etcdctl = BenchmarkEtcd.onPath("etcdctl") else {
        bench.unavailable(name, baseline: "etcdctl put", target: 2, reason: "etcdctl is not installed")
        return
    }
    let text = String(repeating: "a", count: size - 2)
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let file = folder.file("value")
    try Data("\"\(text)\"".utf8).write(to: file)
    let iterations = bench.quick ? 1 : 2
    let write = Workload(name, iterations: iterations) { n in
        for _ in 0..<n { try store.setValue(.string(text), forKey: "large") }
    }
    let baseline = Workload("etcdctl put, \(label) value", iterations: iterations) { n in
        for _ in 0..<n {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: etcdctl)
            process.arguments = ["--endpoints=\(endpoint)", "put", "bench/large"]
            process.environment = ["ETCDCTL_API": "3"]
            process.standardInput = try FileHandle(forReadingFrom: file)
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchmarkFailure("etcdctl put failed") }
        }
    }
    try bench.compare(write, against: baseline, target: 2, slow: true)
}

private func runEtcdLatency(_ bench: Bench, address: String, store: EtcdStore) throws {
    bench.progress(etcdLatencyCaseName)
    let arrivals = Lock<[Int64: UInt64]>([:])
    let arrived = DispatchSemaphore(value: 0)
    let events = store.changes()
    let listener = Task {
        for await change in events {
            let now = monotonicNanoseconds()
            guard change.key == "latency", case .int(let number)? = change.value else { continue }
            arrivals.withLock { $0[number] = now }
            arrived.signal()
        }
    }
    defer { listener.cancel() }
    let writer = Process()
    writer.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: "/proc/self/exe")
    writer.arguments = ["--etcd-latency-writer", address]
    let input = Pipe()
    let output = Pipe()
    writer.standardInput = input
    writer.standardOutput = output
    try writer.run()
    defer {
        try? input.fileHandleForWriting.close()
        writer.waitUntilExit()
    }
    let lines = LineReader(output.fileHandleForReading.fileDescriptor)
    var latencies: [Double] = []
    for number in 0..<(bench.quick ? 10 : 60) {
        usleep(UInt32.random(in: 0..<100_000))
        try input.fileHandleForWriting.write(contentsOf: Data("\(number)\n".utf8))
        guard let line = lines.next(), let written = UInt64(line) else {
            throw BenchmarkFailure("the etcd writer process stopped answering")
        }
        guard arrived.wait(timeout: .now() + .seconds(60)) == .success,
            let received = arrivals.withLock({ $0[Int64(number)] })
        else {
            throw BenchmarkFailure("etcd write \(number) of another process never reached the stream")
        }
        latencies.append(Double(received) - Double(written))
    }
    bench.addLatency(LatencyResult(name: etcdLatencyCaseName, samples: latencies, target: 10_000_000))
}

/// The writer side of the etcd latency case: writes each number read from standard input
/// to `latency` and prints the moment the write started. (An EtcdStore write returns only
/// once its own watch has seen the change, often after the other process's watch did, so the
/// figure runs from the start of the write: commit included.)
func etcdLatencyWriter(address: String) throws {
    let store = try EtcdStore(configuration: .init(address: address))
    while let line = readLine(), let number = Int64(line) {
        let started = monotonicNanoseconds()
        try store.setValue(.int(number), forKey: "latency")
        FileHandle.standardOutput.write(Data("\(started)\n".utf8))
    }
}

/// One etcd member for the benchmarks, on free loopback ports with a scratch data folder.
struct BenchmarkEtcd {
    let process: Process
    let folder: ScratchFolder
    let endpoint: String

    /// `name` on the PATH, or `nil`.
    static func onPath(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts `etcd`; `nil` when it is not installed. Opening a store waits for it to serve.
    static func start() throws -> BenchmarkEtcd? {
        guard let path = onPath("etcd") else { return nil }
        let folder = try ScratchFolder()
        let client = "http://127.0.0.1:\(try freeLoopbackPort())"
        let peer = "http://127.0.0.1:\(try freeLoopbackPort())"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "--name", "bench", "--data-dir", folder.file("data").path,
            "--listen-client-urls", client, "--advertise-client-urls", client,
            "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
            "--initial-cluster", "bench=\(peer)",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return BenchmarkEtcd(process: process, folder: folder, endpoint: String(client.dropFirst("http://".count)))
    }

    /// SIGTERM, wait for the exit, remove the data folder.
    func stop() {
        process.terminate()
        process.waitUntilExit()
        folder.remove()
    }
}

/// A TCP port on 127.0.0.1 that was free a moment ago (bound with port 0, read, closed).
func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BenchmarkFailure("socket: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard ok else { throw BenchmarkFailure("bind: \(String(cString: strerror(errno)))") }
    return Int(UInt16(bigEndian: address.sin_port))
}
