// Stand-in for the part of Combine that the package's Apple-only code uses, type-checked by
// .ci/apple-typecheck. Declarations only: nothing here runs.
//
// Shapes follow Combine.swiftinterface of the macOS 15 / iOS 18 SDKs (Xcode 16): Combine is built
// in Swift 5 mode with no actor isolation, `ObservableObject` is a plain (nonisolated) protocol,
// and `ObservableObjectPublisher` is a class that is not `Sendable`. Defaults
// (Sources/Defaults/SwiftUI.swift) compiles its `@MainActor` observable object against these
// shapes by leaving `objectWillChange` to the protocol's extension.

/// Combine's `Publisher`: the associated types only; nothing in the package subscribes.
public protocol Publisher<Output, Failure> {
    /// What the publisher sends.
    associatedtype Output
    /// How it fails.
    associatedtype Failure: Error
}

/// Combine's `ObservableObjectPublisher`: a final class without a `Sendable` conformance.
public final class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never

    /// A publisher with no subscriber.
    public init() {}

    /// Tells subscribers the object will change.
    public final func send() {}
}

/// Combine's `ObservableObject`: a nonisolated requirement, `objectWillChange`.
public protocol ObservableObject: AnyObject {
    /// The publisher `objectWillChange` returns.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// Sends before the object changes.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The publisher the SDK synthesizes for a class that declares none (nonisolated, as the
    /// requirement).
    public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

/// Combine's `Published`: a property of an `ObservableObject` class whose every change the
/// synthesized `objectWillChange` announces first. Not `Sendable`.
@propertyWrapper
public struct Published<Value> {
    /// A property holding `wrappedValue`.
    public init(wrappedValue: Value) {}

    /// The value.
    public var wrappedValue: Value {
        get { fatalError() }
        set {}
    }
}
