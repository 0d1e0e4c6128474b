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
    /// Keeps the store's subscription while a wrapper of the key lives.
    private let relay: StoreObservation

    init(relay: StoreObservation) {
        self.relay = relay
    }

    /// The one property tracked; its value means nothing.
    var anchor: Int { 0 }

    /// Registers a read with the tracking in progress on this thread, if any.
    @inline(__always)
    func access() {
        registrar.access(self, keyPath: \.anchor)
    }

    /// Calls the `onChange` of every tracking that read the key since its last change.
    func announceChange() {
        registrar.withMutation(of: self, keyPath: \.anchor) {}
    }
}

/// One store's changes, followed for the Observation framework: one subscription and one task
/// per store that has settings, following each key a setting was made for
/// (``ChangeSnapshotting/keySetSubscription()``), announcing each change to its key's subject
/// after the commit, outside every lock. It ends when the last wrapper of the store is released.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
final class StoreObservation: Sendable {
    private struct WeakSubject: Sendable {
        weak var subject: ObservedKey?
    }

    private struct WeakRelay: Sendable {
        weak var relay: StoreObservation?
    }

    /// Kept, so no other store can take its identifier while this lives.
    private let store: any Storable
    private let subscription: KeySetSubscription
    private let subjects: Lock<[String: WeakSubject]>
    private let task: Task<Void, Never>

    /// The live relay of each store, by identity.
    private static let relays = Lock<[ObjectIdentifier: WeakRelay]>([:])

    private init(store: any Storable) {
        self.store = store
        subscription =
            (store as? any ChangeSnapshotting)?.keySetSubscription()
            ?? KeySetSubscription(changes: store.changes(), follow: { _ in }, end: {})
        let subjects = Lock<[String: WeakSubject]>([:])
        self.subjects = subjects
        task = Task { [changes = subscription.changes] in
            for await change in changes {
                // Out of the lock before announcing: `onChange` may read and write settings.
                let subject = subjects.withLock { $0[change.key]?.subject }
                subject?.announceChange()
            }
        }
    }

    deinit {
        subscription.end()
        task.cancel()
    }

    /// The subject of `key` in `store`, following the key from now on.
    static func subject(of store: any Storable, key: String) -> ObservedKey {
        let id = ObjectIdentifier(store)
        if let relay = relays.withLock({ $0[id]?.relay }) { return relay.subject(forKey: key) }
        // Subscribed outside the table's lock: a store's subscription may take its writers'
        // lock, which an `update` body making a wrapper holds.
        let candidate = StoreObservation(store: store)
        let relay = relays.withLock { relays in
            if let relay = relays[id]?.relay { return relay }
            relays = relays.filter { $0.value.relay != nil }
            relays[id] = WeakRelay(relay: candidate)
            return candidate
        }
        // A candidate that lost the race is released here, outside the lock.
        return relay.subject(forKey: key)
    }

    private func subject(forKey key: String) -> ObservedKey {
        subjects.withLock { subjects in
            if let subject = subjects[key]?.subject { return subject }
            let subject = ObservedKey(relay: self)
            // Followed before any wrapper can read through it, so no change after a read is missed.
            subscription.follow(key)
            subjects[key] = WeakSubject(subject: subject)
            return subject
        }
    }
}
