import Foundation

/// A `Codable` type kept in a store under a key named after the type: the "store an object
/// under its type's name" pattern, without writing the key by hand.
///
/// ```swift
/// struct Session: StoredObject { var user: String; var expires: Date }
///
/// func remember(_ session: Session, in store: any Storable) throws {
///     try store.save(session)                        // under the key "Session"
///     let restored = try store.load(Session.self)    // Session?
///     print(restored?.user ?? "nobody")
///     try store.remove(Session.self)
/// }
/// ```
///
/// The object is stored as a structured tree by ``StoredValueEncoder`` (in a JSON file, a nested
/// object a person can read). Override ``storageKey`` to choose the key, for example to keep it
/// stable when the type is renamed.
public protocol StoredObject: Codable, Sendable {
    /// The key the object is stored under. Default: the type's name (`String(describing:)`,
    /// such as `Session`, or `Box<Int>` for a generic type).
    static var storageKey: String { get }
}

extension StoredObject {
    /// The type's name, such as `Session`.
    public static var storageKey: String { String(describing: Self.self) }
}

extension Storable {
    /// Stores `object` under `T.storageKey`, replacing what was there.
    ///
    /// - Parameter object: The object to store.
    /// - Throws: ``StorageError`` naming the key and the store's location:
    ///   ``StorageError/Code/encodingFailed`` when the object has no stored form, or what
    ///   ``setValue(_:forKey:)`` throws. The previous object then stays.
    public func save<T: StoredObject>(_ object: T) throws {
        do {
            try setValue(StoredValueEncoder().encode(object), forKey: T.storageKey)
        } catch {
            throw objectError(error, T.self)
        }
    }

    /// The object stored under `T.storageKey`, or `nil` when the key holds nothing.
    ///
    /// - Parameter type: The object's type.
    /// - Returns: The decoded object, or `nil`.
    /// - Throws: ``StorageError`` naming the key, the type, the found kind and the store's
    ///   location when the stored value does not decode (it is left untouched).
    public func load<T: StoredObject>(_ type: T.Type) throws -> T? {
        guard let stored = value(forKey: T.storageKey) else { return nil }
        do {
            return try StoredValueDecoder().decode(T.self, from: stored)
        } catch {
            throw objectError(error, T.self)
        }
    }

    /// Removes the object stored under `T.storageKey`; nothing happens when there is none.
    ///
    /// - Parameter type: The object's type.
    /// - Throws: What ``setValue(_:forKey:)`` throws.
    public func remove<T: StoredObject>(_ type: T.Type) throws {
        do {
            try setValue(nil, forKey: T.storageKey)
        } catch {
            throw objectError(error, T.self)
        }
    }

    private func objectError<T: StoredObject>(_ error: any Error, _ type: T.Type) -> StorageError {
        var storageError = error as? StorageError
            ?? StorageError(.io, expectedType: typeName(T.self), message: "the store threw \(typeName(Swift.type(of: error)))")
        if storageError.key == nil { storageError.key = T.storageKey }
        if storageError.path == nil { storageError.path = location }
        return storageError
    }
}
