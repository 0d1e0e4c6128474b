import Observation

/// The object a ``Stored`` wrapper registers its reads on, for the Observation framework, or
/// `nil` where the framework is missing (macOS 13, iOS 16, tvOS 16, watchOS 9). Looked up once,
/// when the wrapper is made, so a read only calls the registrar.
@usableFromInline
func observationSubject(of store: any Storable, key: String) -> AnyObject? {
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) {
        return StoreObservation.subject(of: store, key: key)
    }
    return nil
}

/// What the Observation framework tracks for one key of one store: every wrapper of the key
/// registers its reads on this object, and each committed change of the key is announced as
/// its mutation.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
final class ObservedKey: Observable, Sendable {
    private let registrar = ObservationRegistrar()
    /// Made once: a key path literal is looked up in the runtime at each use. Unchecked
    /// because `KeyPath` is not marked `Sendable`, though a key path is immutable once made.
    nonisolated(unsafe) private static let anchorPath: KeyPath<ObservedKey, Int> = \.anchor

    /// The one property tracked; its value means nothing.
    var anchor: Int { 0 }

    /// Registers a read with the tracking in progress on this thread, if any.
    func access() {
        registrar.access(self, keyPath: Self.anchorPath)
    }

    /// Calls the `onChange` of every tracking that read the key since its last change.
    func announceChange() {
        registrar.withMutation(of: self, keyPath: Self.anchorPath) {}
    }
}

/// One store's changes, followed for the Observation framework: one subscription and one task
/// per store that settings were made for, following each of their keys
/// (``ChangeSnapshotting/keySetSubscription()``) and announcing each change to its key's
/// subject after the commit, outside every lock.
///
/// It lives as long as its store, so settings made and released again and again (a
/// `SettingsGroup` value in each SwiftUI `body`) find it made. The relay of a released store
/// ends when its stream does or, for a store whose stream outlives it (a `LayeredStore`), when
/// the next store's relay is made.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
final class StoreObservation: Sendable {
    /// Every relay and every key's subject, under one lock: a wrapper's creation looks its
    /// subject up with one hash.
    private struct Table {
        var relays: [ObjectIdentifier: StoreObservation] = [:]
        var subjects: [SubjectID: (subject: ObservedKey, relay: StoreObservation)] = [:]
    }

    private struct SubjectID: Hashable {
        var store: ObjectIdentifier
        var key: String
    }

    private static let table = Lock(Table())

    private weak let store: (any Storable)?
    private let subscription: KeySetSubscription
    private let task: Task<Void, Never>

    private init(store: any Storable) {
        self.store = store
        subscription =
            (store as? any ChangeSnapshotting)?.keySetSubscription()
            ?? KeySetSubscription(changes: store.changes(), follow: { _ in }, end: {})
        let id = ObjectIdentifier(store)
        task = Task { [changes = subscription.changes] in
            for await change in changes {
                // Out of the lock before announcing: `onChange` may read and write settings.
                let id = SubjectID(store: id, key: change.key)
                Self.table.withLock { $0.subjects[id]?.subject }?.announceChange()
            }
        }
    }

    deinit {
        subscription.end()
        task.cancel()
    }

    /// The subject of `key` in `store`, following the key from now on.
    static func subject(of store: any Storable, key: String) -> ObservedKey {
        let id = SubjectID(store: ObjectIdentifier(store), key: key)
        if let subject = table.withLock({ followedSubject(id, in: &$0, relay: nil) }) { return subject }
        // A store without a live relay: subscribed outside the table's lock, since a store's
        // subscription may take its writers' lock, which an `update` body making a wrapper holds.
        let candidate = StoreObservation(store: store)
        var stale: [StoreObservation] = []
        let subject = table.withLock { table in
            if let found = followedSubject(id, in: &table, relay: nil) {
                stale = [candidate]
                return found
            }
            // Relays of stores gone end with their subjects, outside the lock.
            stale = table.relays.values.filter { $0.store == nil }
            table.relays = table.relays.filter { $0.value.store != nil }
            table.subjects = table.subjects.filter { $0.value.relay.store != nil }
            table.relays[id.store] = candidate
            // Never nil: the candidate is live while the caller holds its store.
            return followedSubject(id, in: &table, relay: candidate)!
        }
        withExtendedLifetime(stale) {}
        return subject
    }

    /// The subject of `id` through the store's live relay (or `relay`), made and followed when
    /// missing; `nil` while the store has no live relay.
    private static func followedSubject(
        _ id: SubjectID, in table: inout Table, relay: StoreObservation?
    ) -> ObservedKey? {
        if let (subject, owner) = table.subjects[id], owner.store != nil { return subject }
        guard let relay = relay ?? table.relays[id.store], relay.store != nil else { return nil }
        let subject = ObservedKey()
        // Followed before any wrapper can read through the subject, so no change after a read
        // is missed: under the table's lock, which only the subscription's own lock follows.
        relay.subscription.follow(id.key)
        table.subjects[id] = (subject, relay)
        return subject
    }
}
