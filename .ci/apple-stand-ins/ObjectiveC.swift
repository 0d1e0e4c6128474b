// Stand-in for `NSObject` with its key-value observation entry points, type-checked by
// .ci/apple-typecheck. Declarations only: nothing here runs.
//
// Shapes follow ObjectiveC.swiftinterface and Foundation's NSKeyValueObserving.h as the macOS 15
// / iOS 18 SDKs (Xcode 16) import them: `NSObject` is an open class that is not `Sendable`, yet
// a final subclass with only `let` properties of `Sendable` types may conform to `Sendable` (the
// compiler allows it for `ObjectiveC.NSObject` alone, so it is declared in a module of this
// name); `observeValue(forKeyPath:of:change:context:)` is nonisolated and open. In the SDK the
// observation methods come from a Foundation category; without Objective-C interoperability
// only a class body can declare them overridable, so they are here, with the types their
// signatures name. Defaults
// (Sources/Defaults/Observation.swift) and swift-sharing (AppStorageKey's `Observer`) subclass
// `NSObject` and call `addObserver(_:forKeyPath:options:context:)` with these shapes.

/// The root class of Objective-C objects.
open class NSObject {
    public init() {}

    /// Called with each change of a key path this object observes.
    open func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {}

    /// Makes `observer` observe `keyPath` of this object; key-value observation does not retain
    /// it.
    open func addObserver(
        _ observer: NSObject, forKeyPath keyPath: String, options: NSKeyValueObservingOptions = [],
        context: UnsafeMutableRawPointer?
    ) {}

    /// Stops `observer` observing `keyPath`.
    open func removeObserver(_ observer: NSObject, forKeyPath keyPath: String) {}
}

/// The keys of a change dictionary (`NSKeyValueChangeNewKey`...).
public struct NSKeyValueChangeKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// What a change dictionary holds.
public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let new = NSKeyValueObservingOptions(rawValue: 0x1)
    public static let old = NSKeyValueObservingOptions(rawValue: 0x2)
    public static let initial = NSKeyValueObservingOptions(rawValue: 0x4)
    public static let prior = NSKeyValueObservingOptions(rawValue: 0x8)
}
