// Stand-in for the part of Dispatch that the package's Apple-only branches use (the file-system
// sources of FolderEvents), type-checked by .ci/apple-typecheck. Declarations only: nothing here
// runs.
//
// Shapes follow Dispatch.swiftinterface of the macOS 15 / iOS 18 SDKs (Xcode 16), whose source
// is the open overlay (swift-corelibs-libdispatch src/swift/Source.swift, Queue.swift: the
// file-system sources are its `!os(Linux)` parts): `DispatchQueue` is `Sendable`, a source is
// not; `makeFileSystemObjectSource` returns `any DispatchSourceFileSystemObject`, whose `data`
// and `mask` are `DispatchSource.FileSystemEvent` and `handle` the descriptor. swift-sharing's
// FileStorageKey (`fileSystemSource`) makes, resumes and cancels its sources with these calls.
// Handlers are `@Sendable` here: Dispatch runs them on its own threads. The `qos:` and `flags:`
// parameters, which have defaults and which the package never passes, are left out.

/// Dispatch's serial queue.
public final class DispatchQueue: @unchecked Sendable {
    // As the SDK declares it: a queue may be used from any thread; nothing here runs.
    public init(label: String) {}

    /// Runs `work` on the queue, later.
    public func async(execute work: @escaping @Sendable @convention(block) () -> Void) {}
}

/// Dispatch's counting semaphore (`dispatch_semaphore_t`); `Sendable` in the SDK.
public final class DispatchSemaphore: @unchecked Sendable {
    // As the SDK declares it: made for use from several threads; nothing here runs.
    public init(value: Int) {}
    @discardableResult public func signal() -> Int { fatalError() }
    public func wait() {}
}

/// What a source runs for an event, or when cancelled.
public typealias DispatchSourceHandler = @Sendable @convention(block) () -> Void

/// The calls every Dispatch source answers. Not `Sendable`.
public protocol DispatchSourceProtocol: AnyObject {
    func setEventHandler(handler: DispatchSourceHandler?)
    func setCancelHandler(handler: DispatchSourceHandler?)
    func resume()
    func cancel()
    var isCancelled: Bool { get }
}

/// A source on a file or folder's vnode (`EVFILT_VNODE`).
public protocol DispatchSourceFileSystemObject: DispatchSourceProtocol {
    /// The events since the handler last ran.
    var data: DispatchSource.FileSystemEvent { get }
    /// The descriptor the source was made on.
    var handle: Int32 { get }
    /// The events the source was made for.
    var mask: DispatchSource.FileSystemEvent { get }
}

/// Dispatch's source factory.
public class DispatchSource {
    /// The vnode events a file-system source reports (`NOTE_DELETE`... in <sys/event.h>).
    public struct FileSystemEvent: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let delete = FileSystemEvent(rawValue: 0x1)
        public static let write = FileSystemEvent(rawValue: 0x2)
        public static let extend = FileSystemEvent(rawValue: 0x4)
        public static let attrib = FileSystemEvent(rawValue: 0x8)
        public static let link = FileSystemEvent(rawValue: 0x10)
        public static let rename = FileSystemEvent(rawValue: 0x20)
        public static let revoke = FileSystemEvent(rawValue: 0x40)
        public static let funlock = FileSystemEvent(rawValue: 0x100)
        public static let all: FileSystemEvent = [.delete, .write, .extend, .attrib, .link, .rename, .revoke]
    }

    /// A suspended source for `eventMask` on the vnode `fileDescriptor` refers to.
    public class func makeFileSystemObjectSource(
        fileDescriptor: Int32, eventMask: FileSystemEvent, queue: DispatchQueue? = nil
    ) -> any DispatchSourceFileSystemObject {
        fatalError()
    }
}
