package import StoredSettings

/// Follows one setting: calls `onChange` with the stored value after each committed change to
/// its key, from a subscription to that key alone where the store offers one
/// (``StoredSettings/ChangeSnapshotting``: on Apple platforms a `UserDefaultsStore` then hears
/// other processes write the key), else from ``StoredSettings/Storable/changes()``, until it
/// follows another setting or is released.
///
/// The part of ``LiveSetting`` that runs on every platform, so its behaviour is tested on
/// Linux too. Changes, not the setting's `updates`: that stream keeps only the newest value,
/// so a change made before the follower's task first ran would replace the current value and
/// be taken for it.
///
/// Thread-safety: every member may be used from any thread; `onChange` is called from a task
/// of its own, one call at a time.
package final class SettingFollower<Value: Sendable>: Sendable {
    /// The store and key followed: a setting with the same two is the same setting.
    private struct Identity: Equatable {
        let store: ObjectIdentifier
        let key: String
    }

    private let onChange: @Sendable (StoredValue?) -> Void
    /// The setting followed (kept, so no other store can take its store's identifier), the
    /// subscription to its key and the task that reads it.
    private let following = Lock<
        (identity: Identity, setting: Stored<Value>, subscription: KeySubscription, task: Task<Void, Never>)?
    >(nil)

    /// A follower of `setting`.
    package init(_ setting: Stored<Value>, onChange: @escaping @Sendable (StoredValue?) -> Void) {
        self.onChange = onChange
        follow(setting)
    }

    /// Follows `setting` from now on instead of the setting followed so far; nothing when it is
    /// that setting (the same store and key).
    package func follow(_ setting: Stored<Value>) {
        let identity = Identity(store: ObjectIdentifier(setting.store), key: setting.key)
        following.withLock { following in
            guard following?.identity != identity else { return }
            following?.subscription.end()
            following?.task.cancel()
            // Subscribed here, so no change after this returns is missed.
            let subscription = setting.store.keySubscription(forKey: setting.key)
            let onChange = onChange
            following = (
                identity, setting, subscription,
                Task {
                    // A cancelled stream may still hand out what it holds: nothing after `follow`.
                    for await change in subscription.changes where change.key == identity.key && !Task.isCancelled {
                        onChange(change.value)
                    }
                }
            )
        }
    }

    deinit {
        following.withLock {
            $0?.subscription.end()
            $0?.task.cancel()
        }
    }
}
