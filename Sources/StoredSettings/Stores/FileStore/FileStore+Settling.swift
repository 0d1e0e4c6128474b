import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileStore {
    /// How many times a write looks at a file that is empty or does not parse before giving up
    /// (about half a second).
    static let settleLooks = 50
    /// How many looks in a row must find the file unchanged for it to count as settled:
    /// 10, about 100 milliseconds.
    static let settledLooks = 10
    /// The pause between two looks, in microseconds.
    static let settlePause: useconds_t = 10_000

    /// Under the file lock, before a write: the file's current version (`nil` if missing), waiting
    /// for one caught mid-save by another program to settle. An empty or unparsable file is looked
    /// at again until it parses and is not empty, stays unchanged for ``settledLooks`` (then its problem is thrown,
    /// unless it is a new empty file) or ``settleLooks`` run out (<doc:ConfigurationFiles>).
    func loadSettled(target: String, hadContent: Bool) throws -> LoadedFile? {
        var previous: FileFingerprint?
        var unchangedLooks = 0
        var problem: StorageError?
        for _ in 0..<Self.settleLooks {
            let seen: FileFingerprint?
            do {
                guard let loaded = try Self.load(path: target, format: format, options: options) else { return nil }
                if loaded.fingerprint.size > 0 { return loaded }
                if !hadContent, unchangedLooks >= Self.settledLooks { return loaded }
                seen = loaded.fingerprint
                problem = hadContent ? Self.emptiedFileError(path: target) : nil
            } catch let error as StorageError where Self.isCorruption(error) {
                seen = try FileSystem.fingerprint(atPath: target)
                problem = error
            }
            if let seen, seen == previous {
                unchangedLooks += 1
            } else {
                unchangedLooks = 0
                previous = seen
            }
            if unchangedLooks >= Self.settledLooks, let problem { throw problem }
            usleep(Self.settlePause)
        }
        throw problem
            ?? StorageError(
                .dataCorrupted, location: target,
                message: "the file kept changing while this write waited for it to settle; the change was not saved")
    }

    /// The error for a file that held settings when this store read it and is now empty.
    static func emptiedFileError(path: String) -> StorageError {
        StorageError(
            .dataCorrupted, location: path,
            message:
                "the file is empty, but it held settings when this store last read it; another program may be rewriting it, so it was not written over and the change was not saved"
        )
    }
}
