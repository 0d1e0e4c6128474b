// Stand-in for the part of Foundation that the package's Apple-only branches name, type-checked
// by .ci/apple-typecheck. Declarations only: nothing here runs. It is not Foundation: the rest of
// each target is type-checked against the Linux toolchain's Foundation by the build itself, and
// the step keeps only the diagnostics of Apple-only lines.
//
// Shapes follow Foundation.swiftinterface and CoreFoundation's headers of the macOS 15 / iOS 18
// SDKs (Xcode 16): Foundation re-exports Darwin, Dispatch, ObjectiveC and CoreFoundation;
// `UserDefaults` and `NSNumber` are `@unchecked Sendable`, `NSString` is not; `URL` is a
// `Sendable` value. Defaults (Sources/Defaults/Observation.swift: `UserDefaults` observed key by
// key) and swift-sharing (AppStorageKey: `UserDefaults.didChangeNotification`,
// `addObserver(_:forKeyPath:context:)`) call these members.

@_exported import Darwin
@_exported import Dispatch
@_exported import ObjectiveC

// MARK: - Darwin's Swift overlay

/// `fcntl` with an argument, as Darwin's Swift overlay (Platform.swift) declares it; here because
/// the Darwin stand-in is a C header, and Foundation re-exports Darwin.
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { fatalError() }

// MARK: - CoreFoundation

public typealias CFTypeRef = AnyObject
public typealias CFTypeID = UInt

/// The type of a Core Foundation object (a toll-free bridged `NSNumber` too).
public func CFGetTypeID(_ cf: CFTypeRef!) -> CFTypeID { fatalError() }

/// The type of `kCFBooleanTrue` and `kCFBooleanFalse`.
public func CFBooleanGetTypeID() -> CFTypeID { fatalError() }

// MARK: - Objects

/// Foundation's number object.
open class NSNumber: NSObject, @unchecked Sendable {
    // As the SDK declares it: immutable; nothing here runs.
    public init(value: Bool) {}
    open var boolValue: Bool { fatalError() }
}

/// Foundation's string object; `String` bridges to it with `as`.
open class NSString: NSObject {
    /// The path without its last component.
    open var deletingLastPathComponent: String { fatalError() }
}

extension String: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSString { fatalError() }
    public static func _forceBridgeFromObjectiveC(_ source: NSString, result: inout String?) {}
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSString, result: inout String?) -> Bool {
        fatalError()
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> String { fatalError() }
}

/// Foundation's file and web address.
public struct URL: Hashable, Sendable {
    public init(fileURLWithPath path: String, isDirectory: Bool) {}
    public var path: String { fatalError() }
    public var pathExtension: String { fatalError() }
    public func appendingPathComponent(_ component: String, isDirectory: Bool) -> URL { fatalError() }
    public func appendingPathComponent(_ component: String) -> URL { fatalError() }
}

/// The current user's home folder: an app's container when it is sandboxed.
public func NSHomeDirectory() -> String { fatalError() }

/// Foundation's file manager: thread-safe, so `@unchecked Sendable` in the SDK.
open class FileManager: NSObject, @unchecked Sendable {
    // As the SDK declares it; nothing here runs.
    open class var `default`: FileManager { fatalError() }
    /// The folder an App Group's members share, or `nil` when the app is not in the group.
    open func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? { fatalError() }
}

/// A notification's name.
open class NSNotification: NSObject {
    public struct Name: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
}

// MARK: - ProcessInfo

/// Foundation's process information; `@unchecked Sendable` in the SDK.
open class ProcessInfo: NSObject, @unchecked Sendable {
    // As the SDK declares it: one object for the process, used from any thread; nothing here runs.
    /// The process's object.
    open class var processInfo: ProcessInfo { fatalError() }

    /// Runs `block` on a queue of the system's, and again with `true` when the process is about
    /// to be suspended; the process is kept running while the first call has not returned.
    open func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {}
}

// MARK: - UserDefaults

/// Foundation's defaults database: thread-safe, so `@unchecked Sendable` in the SDK.
open class UserDefaults: NSObject, @unchecked Sendable {
    // As the SDK declares it: the database serializes access itself; nothing here runs.
    open class var standard: UserDefaults { fatalError() }
    public init?(suiteName: String?) {}

    open func object(forKey defaultName: String) -> Any? { fatalError() }
    open func set(_ value: Any?, forKey defaultName: String) {}
    open func removeObject(forKey defaultName: String) {}
    open func register(defaults registrationDictionary: [String: Any]) {}
    open func dictionaryRepresentation() -> [String: Any] { fatalError() }
    open func persistentDomain(forName domainName: String) -> [String: Any]? { fatalError() }
    open func synchronize() -> Bool { fatalError() }

    /// Posted by an instance after a change made through it.
    public static let didChangeNotification = NSNotification.Name(rawValue: "NSUserDefaultsDidChangeNotification")
}
