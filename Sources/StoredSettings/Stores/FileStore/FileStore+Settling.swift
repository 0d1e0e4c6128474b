import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileStore {
    /// How many times a write looks at a file that is empty or does not parse before giving up:
    /// 50 looks, 10 milliseconds apart, so a write waits at most about half a second.
    static let settleLooks = 50
    /// How many looks in a row must find the file unchanged for it to count as settled:
    /// 10, about 100 milliseconds.
    static let settledLooks = 10
    /// The pause between two looks, in microseconds.
    static let settlePause: useconds_t = 10_000

    /// Under the file lock, before a write: the file's current version, waiting for a file
    /// caught in the middle of another program's save to settle.
    ///
    /// An editor that saves in place truncates the file and then writes it, so for a moment
    /// the file is empty or cut short. Writing over it then would keep only this store's
    /// change. So a file that is empty or does not parse is looked at again, 10 ms apart:
    /// - as soon as it parses and is not empty (the save finished), that version is used;
    /// - a file that stays unchanged for about 100 ms (``settledLooks``) has settled: one that
    ///   does not parse throws its parse error; an empty one is an empty store only when this
    ///   store never read settings from it (a new empty file), and otherwise throws
    ///   ``StorageError/Code/dataCorrupted`` (``emptiedFileError(path:)``): a file that held
    ///   settings is never written over because it was seen empty;
    /// - after about half a second (``settleLooks``) of changes, the last problem is thrown.
    ///
    /// A missing file is an empty store at once: an atomic save never leaves one, and a
    /// deleted file is a deliberate reset.
    ///
    /// - Parameter hadContent: Whether the version this store last read had any bytes.
    /// - Throws: The file's parse error, ``emptiedFileError(path:)``, or what ``load(path:format:options:)``
    ///   throws for a file that cannot be read.
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
