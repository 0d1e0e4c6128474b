// Stand-in for the part of SwiftUI that the package's Apple-only code and its example app use,
// type-checked by .ci/apple-typecheck. Declarations only: nothing here runs.
//
// Isolation and `Sendable` follow SwiftUI.swiftinterface of the macOS 15 / iOS 18 SDKs (Xcode
// 16), as OpenSwiftUI declares them after auditing against it (OpenSwiftUICore's View.swift,
// DynamicProperty.swift, StateObject.swift, Binding.swift, Environment.swift): `View`, `App` and
// `Scene` are `@MainActor @preconcurrency` protocols; `DynamicProperty` is not isolated;
// `StateObject` is a main-actor type whose initializer is nonisolated; `Binding`'s closures are
// `@Sendable` and `@isolated(any)`. A control's title is a `StringProtocol` here, where the SDK
// also offers `LocalizedStringKey`, which a literal prefers: the same calls type-check.

// SwiftUI re-exports Combine: `import SwiftUI` alone gives `ObservableObject`.
@_exported public import Combine

// MARK: - Views

/// SwiftUI's `View`.
@MainActor @preconcurrency
public protocol View {
    /// The type of the view's content.
    associatedtype Body: View
    /// The view's content.
    @ViewBuilder @MainActor @preconcurrency var body: Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

/// SwiftUI's `ViewBuilder`: single views, blocks of views, `if` and `if`-`else`.
@resultBuilder
public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { fatalError() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        fatalError()
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<First: View, Second: View>(first: First) -> _ConditionalContent<First, Second> {
        _ConditionalContent()
    }
    public static func buildEither<First: View, Second: View>(second: Second) -> _ConditionalContent<First, Second> {
        _ConditionalContent()
    }
}

extension Optional: View where Wrapped: View {
    public var body: Never { fatalError() }
}

/// What `ViewBuilder` makes of `if`-`else`.
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    public var body: Never { fatalError() }
}

/// What `ViewBuilder` makes of an empty block.
public struct EmptyView: View {
    public init() {}
    public var body: Never { fatalError() }
}

/// What `ViewBuilder` makes of a block of views.
public struct TupleView<T>: View {
    public init(_ value: T) {}
    public var body: Never { fatalError() }
}

/// SwiftUI's `Text`.
public struct Text: View, Equatable, Sendable {
    public init<S: StringProtocol>(_ content: S) {}
    public var body: Never { fatalError() }
}

/// SwiftUI's `Toggle`, with a text title.
public struct Toggle<Label: View>: View {
    public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) where Label == Text {}
    public var body: Never { fatalError() }
}

/// SwiftUI's `TextField`, with a text title.
public struct TextField<Label: View>: View {
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) where Label == Text {}
    public var body: Never { fatalError() }
}

/// SwiftUI's `Picker`, with a text title.
public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: View {
    public init<S: StringProtocol>(
        _ title: S, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content
    ) where Label == Text {}
    public var body: Never { fatalError() }
}

/// SwiftUI's `ForEach` over identified elements.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
    public var body: Never { fatalError() }
}

/// SwiftUI's `Form`.
public struct Form<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

/// SwiftUI's `Section`, with a text header.
public struct Section<Content: View>: View {
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

/// What a view modifier returns.
public struct ModifiedContent<Content, Modifier>: View {
    public var body: Never { fatalError() }
}

extension View {
    /// SwiftUI's `tag(_:)`: the value a picker selects for this view.
    nonisolated public func tag<V: Hashable>(_ tag: V) -> ModifiedContent<Self, V> { ModifiedContent() }
}

// MARK: - Apps and scenes

/// SwiftUI's `App`.
@MainActor @preconcurrency
public protocol App {
    /// The type of the app's content.
    associatedtype Body: Scene
    /// The app's content.
    @SceneBuilder @MainActor @preconcurrency var body: Body { get }
    /// An app, made by SwiftUI.
    @MainActor @preconcurrency init()
}

extension App {
    /// Runs the app: what `@main` calls.
    @MainActor @preconcurrency public static func main() {}
}

/// SwiftUI's `Scene`.
@MainActor @preconcurrency
public protocol Scene {
    /// The type of the scene's content.
    associatedtype Body: Scene
    /// The scene's content.
    @SceneBuilder @MainActor @preconcurrency var body: Body { get }
}

extension Never: Scene {}

/// SwiftUI's `SceneBuilder`: one scene.
@resultBuilder
public struct SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// SwiftUI's `WindowGroup`.
public struct WindowGroup<Content: View>: Scene {
    nonisolated public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

// MARK: - Dynamic properties

/// SwiftUI's `DynamicProperty`: not isolated; `update()` is called on the main thread.
public protocol DynamicProperty {
    /// Updates the property before the view's body is computed.
    mutating func update()
}

extension DynamicProperty {
    public mutating func update() {}
}

/// SwiftUI's `StateObject`: a main-actor property wrapper whose initializer is nonisolated.
@propertyWrapper @preconcurrency @MainActor
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
    nonisolated public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) {}

    /// The object.
    @MainActor public var wrappedValue: ObjectType { fatalError() }
}

/// SwiftUI's `Binding`: `@Sendable`, `@isolated(any)` accessors, run in the caller's isolation.
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    @preconcurrency
    public init(
        @_inheritActorContext get: @escaping @isolated(any) @Sendable () -> Value,
        @_inheritActorContext set: @escaping @isolated(any) @Sendable (Value) -> Void
    ) {}

    /// The value.
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set {}
    }

    /// The binding itself.
    public var projectedValue: Binding<Value> { self }

    /// A binding to a member of the value.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError()
    }
}

// As the SDK declares it: safe there because a Binding holds only its get and set closures,
// which SwiftUI calls on the main actor; here no stand-in body runs at all (each is fatalError).
extension Binding: @unchecked Sendable where Value: Sendable {}

/// SwiftUI's `EnvironmentValues`: the one value the example app reads.
public struct EnvironmentValues {
    /// Whether the app is active, inactive or in the background.
    public var scenePhase: ScenePhase { .active }
}

/// SwiftUI's `ScenePhase`.
public enum ScenePhase: Comparable, Hashable, Sendable {
    case background, inactive, active
}

/// SwiftUI's `Environment`: a nonisolated dynamic property, `Sendable` when its value is.
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}

    /// The value now.
    public var wrappedValue: Value { fatalError() }
}

extension Environment: Sendable where Value: Sendable {}
