import Observation

/// The object a ``Stored`` wrapper registers its reads on, or `nil` without the Observation
/// framework; looked up once, when the wrapper is made.
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
    /// Made once (a literal is looked up at each use). Unchecked: `KeyPath` is not marked
    /// `Sendable`, though it is immutable.
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

/// One store's subscription for the Observation framework
/// (``ChangeSnapshotting/keySetSubscription(onChange:)``): follows each key settings were made
/// for and announces each change to the key's subject after the commit, outside every lock.
///
/// It holds the store weakly and lives as long as it, so settings made in each SwiftUI `body`
/// find it made; it is removed when another store's first setting is made after its store is
/// gone.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
final class StoreObservation: Sendable {
    /// Every relay and every key's subject, under one lock.
    private struct Table {
        var relays: [ObjectIdentifier: StoreObservation] = [:]
        var subjects: [SubjectID: (subject: ObservedKey, relay: StoreObservation)] = [:]
        var serials: UInt64 = 0

        /// Removes the relays whose store is gone, with their subjects, and returns them, to be
        /// released outside the lock.
        mutating func removeRelaysOfGoneStores() -> [StoreObservation] {
            let removed = relays.values.filter { $0.store.store == nil }
            guard !removed.isEmpty else { return [] }
            relays = relays.filter { $0.value.store.store != nil }
            subjects = subjects.filter { $0.value.relay.store.store != nil }
            return removed
        }
    }

    private struct SubjectID: Hashable {
        var store: ObjectIdentifier
        var key: String
    }

    /// A weak reference to a store, `Sendable` as a value.
    private struct WeakStore: Sendable {
        weak var store: (any Storable)?
    }

    /// How a relay follows its store: a handler per key where the store takes one, so a commit
    /// announces to the key's subject directly, without this table's lock; else one handler that
    /// looks the subject up.
    private enum Following: Sendable {
        case perKey(FileStore.KeyHandlerSubscription)
        case shared(KeySetSubscription)
    }

    private static let table = Lock(Table())

    private let store: WeakStore
    private let subscription: Following

    private init(store: any Storable) {
        self.store = WeakStore(store: store)
        let serial = Self.table.withLock { table in
            table.serials += 1
            return table.serials
        }
        self.serial = serial
        if let store = store as? FileStore {
            subscription = .perKey(store.keyHandlerSubscription())
            return
        }
        let id = ObjectIdentifier(store)
        let announce: @Sendable (StoredChange) -> Void = { [weakStore = self.store] change in
            guard weakStore.store != nil else { return }
            // Announced outside the lock: `onChange` may read and write settings.
            let subject = Self.table.withLock { table in
                table.subjects[SubjectID(store: id, key: change.key)].flatMap {
                    $0.relay.serial == serial ? $0.subject : nil
                }
            }
            subject?.announceChange()
        }
        subscription = .shared(
            (store as? any ChangeSnapshotting)?.keySetSubscription(onChange: announce)
                ?? KeySetSubscription(following: store.changes(), onChange: announce))
    }

    /// Tells this relay's subjects from a later relay's for a store at the same address.
    private let serial: UInt64

    deinit {
        switch subscription {
        case .perKey(let subscription): subscription.end()
        case .shared(let subscription): subscription.end()
        }
    }

    /// Follows `key`, announcing its changes to `subject`.
    private func follow(_ key: String, announcingTo subject: ObservedKey) {
        switch subscription {
        case .perKey(let subscription): subscription.follow(key) { _ in subject.announceChange() }
        case .shared(let subscription): subscription.follow(key)
        }
    }

    /// The subject of `key` in `store`, following the key from now on.
    static func subject(of store: any Storable, key: String) -> ObservedKey {
        let id = SubjectID(store: ObjectIdentifier(store), key: key)
        if let subject = table.withLock({ followedSubject(id, in: &$0, relay: nil) }) { return subject }
        // Subscribed outside the table's lock: subscribing may take the store's writers' lock,
        // which an `update` body making a wrapper holds.
        let candidate = StoreObservation(store: store)
        var stale: [StoreObservation] = []
        let subject = table.withLock { table in
            if let found = followedSubject(id, in: &table, relay: nil) {
                stale = [candidate]
                return found
            }
            stale = table.removeRelaysOfGoneStores()
            table.relays[id.store] = candidate
            // A store being deinitialised reads as gone: its setting is then not tracked.
            return followedSubject(id, in: &table, relay: candidate) ?? ObservedKey()
        }
        // Relays that lost the race or outlived their stores end here, outside the lock.
        withExtendedLifetime(stale) {}
        return subject
    }

    /// The subject of `id` through the store's live relay (or `relay`), made and followed when
    /// missing; `nil` while the store has no live relay.
    private static func followedSubject(
        _ id: SubjectID, in table: inout Table, relay: StoreObservation?
    ) -> ObservedKey? {
        if let (subject, owner) = table.subjects[id], owner.store.store != nil { return subject }
        guard let relay = relay ?? table.relays[id.store], relay.store.store != nil else { return nil }
        let subject = ObservedKey()
        // Followed before any read through the subject, so no change is missed. Safe under the
        // table's lock: following takes only the store's own locks, never held when taking it.
        relay.follow(id.key, announcingTo: subject)
        table.subjects[id] = (subject, relay)
        return subject
    }
}
