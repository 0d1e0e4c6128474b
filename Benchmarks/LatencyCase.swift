import Foundation
import StoredSettings
import StoredSettingsCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a write in one process takes to reach another process's ``FileStore/changes()``
/// stream: from the writer calling `setValue` to the reader's stream yielding the change, so
/// the figure includes the durable write itself (the event comes with its `rename`).
///
/// This executable runs itself as the writer (`--latency-writer PATH`). Both sides stamp their
/// moment with `CLOCK_MONOTONIC`, which one machine's processes share, so the difference is
/// the latency whatever the reader was doing. Writes come at random moments (up to 0.3 s
/// apart). Reported as the median and the 99th percentile.
let latencyCaseName = "change visible in another process"

func runLatency(_ bench: Bench) throws {
    if let only = bench.only, !latencyCaseName.contains(only) { return }
    bench.progress(latencyCaseName)
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let url = folder.file("latency.json")
    let reader = try FileStore(url: url)
    try reader.setValue(.int(-1), forKey: "latency")

    let arrivals = Lock<[Int64: UInt64]>([:])
    let arrived = DispatchSemaphore(value: 0)
    let events = reader.changes()
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
    writer.arguments = ["--latency-writer", url.path]
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

    let samples = bench.quick ? 10 : 60
    var latencies: [Double] = []
    for number in 0..<samples {
        // Writes at random moments, not in step with the reader's last check, so the figure is
        // what a write at an arbitrary moment sees.
        usleep(UInt32.random(in: 0..<300_000))
        try input.fileHandleForWriting.write(contentsOf: Data("\(number)\n".utf8))
        guard let line = lines.next(), let written = UInt64(line) else {
            throw BenchmarkFailure("the writer process stopped answering")
        }
        // The hang guard of a benchmark: a change that never arrives is an error, not a figure.
        guard arrived.wait(timeout: .now() + .seconds(60)) == .success,
            let received = arrivals.withLock({ $0[Int64(number)] })
        else {
            throw BenchmarkFailure("write \(number) of another process never reached the stream")
        }
        latencies.append(Double(received) - Double(written))
    }
    bench.addLatency(LatencyResult(name: latencyCaseName, samples: latencies, target: 10_000_000))
}

/// The writer side of ``runLatency(_:)``: for each number read from standard input, writes it
/// to the key `latency` of the store at `path` and prints the moment the write was called.
func latencyWriter(path: String) throws {
    let store = try FileStore(url: URL(fileURLWithPath: path), options: FileStore.Options(changeCheckInterval: nil))
    while let line = readLine(), let number = Int64(line) {
        let called = monotonicNanoseconds()
        try store.setValue(.int(number), forKey: "latency")
        var output = StandardStream.output
        output.write("\(called)\n")
    }
}

/// `CLOCK_MONOTONIC` in nanoseconds: comparable between processes of one machine.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Reads lines from a file descriptor, one `read(2)` of a byte at a time (lines are short).
struct LineReader {
    let descriptor: Int32
    init(_ descriptor: Int32) { self.descriptor = descriptor }

    func next() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
