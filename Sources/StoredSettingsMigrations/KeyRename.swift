/// A setting's key that changed name: reads of the new key fall back to the old one, and the
/// first write of the new key moves it.
///
/// Give renames to a ``MigratingStore``:
///
/// ```swift
/// let store = try MigratingStore(
///     FileStore(url: url),
///     renamedKeys: [KeyRename(from: "theme", to: "appearance")]
/// )
/// ```
///
/// A rename is lazy: nothing is written when the store opens. While the new key holds no
/// value, reading it returns the old key's value; writing it (a set, a removal, an
/// `Storable.update(forKey:_:)` that changes it) writes the new key and removes the old one
/// in one `TransactionalStore.batch(_:)`, so no process ever sees both or neither. Renames
/// may chain (`a` to `b`, then `b` to `c`): `c` falls back to `b`, then to `a`. For a rename
/// that must happen at once, move the value in a ``Migration`` with
/// `StoreBatch.moveValue(fromKey:toKey:)`.
public struct KeyRename: Sendable, Hashable {
    /// The key the value was stored under before.
    public var oldKey: String
    /// The key the value is stored under now.
    public var newKey: String

    /// Declares that the setting stored under `oldKey` is now stored under `newKey`.
    public init(from oldKey: String, to newKey: String) {
        self.oldKey = oldKey
        self.newKey = newKey
    }
}
