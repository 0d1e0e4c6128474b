import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a setter on the main thread takes on a durable ``FileStore`` while another process
/// holds the file's `flock`: `@LiveSetting` and its `Binding` write through
/// ``Stored/saveWithoutWaiting(_:)``, which must not wait for that process. A durable setter
/// would wait for as long as the other process holds on.
///
/// This executable runs itself as the holder (`--hold-lock PATH`), which takes the lock, says so,
/// and keeps it until its standard input closes. Each sample times one call on the main thread.
let mainThreadSetterCaseName = "main-thread setter while another process holds the file's lock"

func runMainThreadSetter(_ bench: Bench) throws {
    if let only = bench.only, !mainThreadSetterCaseName.contains(only) { return }
    bench.progress(mainThreadSetterCaseName)
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let url = folder.file("settings.json")
    let store = try FileStore(url: url, options: FileStore.Options(changeCheckInterval: nil))
    try store.setValue(.int(0), forKey: "volume") // the file and its lock file exist
    let volume = Stored("volume", default: 0, store: store)

    let holder = Process()
    holder.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: "/proc/self/exe")
    holder.arguments = ["--hold-lock", url.path + ".lock"]
    let input = Pipe()
    let output = Pipe()
    holder.standardInput = input
    holder.standardOutput = output
    try holder.run()
    guard LineReader(output.fileHandleForReading.fileDescriptor).next() == "locked" else {
        throw BenchmarkFailure("the lock-holding process did not take the lock")
    }

    let samples = bench.quick ? 50 : 500
    var durations: [Double] = []
    for step in 1...samples {
        let start = monotonicNanoseconds()
        try volume.saveWithoutWaiting(step)
        durations.append(Double(monotonicNanoseconds() - start))
    }
    try? input.fileHandleForWriting.close()
    holder.waitUntilExit()
    try store.flush()
    guard try FileStore(url: url).value(forKey: "volume") == .int(Int64(samples)) else {
        throw BenchmarkFailure("the main thread's last change did not reach the file")
    }
    bench.addLatency(LatencyResult(name: mainThreadSetterCaseName, samples: durations, target: 50_000))
}

/// The holder side of ``runMainThreadSetter(_:)``: takes an exclusive `flock` of `path`, prints
/// `locked`, and keeps the lock until standard input closes.
func holdLock(path: String) throws {
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else {
        throw BenchmarkFailure("cannot lock \(path): errno \(errno)")
    }
    FileHandle.standardOutput.write(Data("locked\n".utf8))
    while readLine() != nil {}
    close(descriptor)
}
