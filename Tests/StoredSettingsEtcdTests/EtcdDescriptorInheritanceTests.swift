#if os(Linux)
import Foundation
import StoredSettings
import StoredSettingsEtcd
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An `EtcdStore`'s connections are close-on-exec: a child process the app spawns (from any
/// thread, at any moment) does not inherit them, so it holds no connection open after the store
/// closes it, and starts with the descriptors its own limit allows.
@Suite(.timeLimit(.hangGuard))
struct EtcdDescriptorInheritanceTests {
    @Test func aStoresConnectionsAreNotInheritedByChildProcesses() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let store = try EtcdStore(configuration: .init(endpoints: cluster.endpoints, prefix: "app"))
        try store.setValue(.int(1), forKey: "k")
        let connections = try Self.descriptors(connectedToPort: cluster.members[0].clientPort)
        try #require(!connections.isEmpty, "the store holds no connection to the member")
        for fd in connections {
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "descriptor \(fd) would be inherited")
        }
        withExtendedLifetime(store) {}
    }

    /// This process's descriptors that are TCP sockets whose remote port is `port`: each
    /// `socket:[INODE]` link in `/proc/self/fd` matched with the inode's line in `/proc/net/tcp`
    /// and `/proc/net/tcp6` (remote address `HEXADDRESS:HEXPORT`, inode in the tenth column).
    static func descriptors(connectedToPort port: Int) throws -> [Int32] {
        var inodes: Set<String> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // Read to its end: the kernel hands a long table out a page per `read`.
            let bytes = FileHandle(forReadingAtPath: table)?.readDataToEndOfFile() ?? Data()
            let text = String(decoding: bytes, as: UTF8.self)
            for line in text.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ")
                guard columns.count > 9, let remotePort = columns[2].split(separator: ":").last,
                    Int(remotePort, radix: 16) == port
                else { continue }
                inodes.insert(String(columns[9]))
            }
        }
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { name in
            guard let fd = Int32(name),
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
                target.hasPrefix("socket:["), inodes.contains(String(target.dropFirst(8).dropLast()))
            else { return nil }
            return fd
        }
    }
}
#endif
