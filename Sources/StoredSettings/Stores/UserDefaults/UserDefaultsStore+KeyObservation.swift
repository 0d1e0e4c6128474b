#if canImport(ObjectiveC)
import Foundation

// Key-value observation of single keys (Apple platforms). `didChangeNotification` tells only of
// changes made in this process; key-value observation of a `UserDefaults` key also tells of
// those other processes make (a widget or an app extension writing an App Group suite). The
// calls and the rule for which keys can be observed are those of swift-sharing's
// `AppStorageKey.subscribe(context:subscriber:)` and its `Observer`, which build on Apple
// platforms.
extension SuiteState {
    /// Observes `key` of the suite's defaults, once per suite and for as long as the suite's
    /// state lives, and compares the followed keys on every observation of a key someone
    /// still follows, as a notification does. (An observer is not removed when the last
    /// stream of its key ends: key-value observation does not retain observers, so removing one
    /// while another thread delivers to it could free it mid-call.) A key with a `.` or a
    /// leading `@` is a key path operator to key-value observation, so such a key is left to
    /// the notification.
    func observeOtherProcesses(forKey key: String) {
        guard !key.isEmpty, !key.contains("."), !key.hasPrefix("@") else { return }
        let observer = keyObservers.withLock { observers -> KeyObserver? in
            guard observers[key] == nil else { return nil }
            let observer = KeyObserver { [weak self] in
                // A commit through a store of this process is delivered by that store, and
                // the notification follows it: only other writers need a comparison here.
                guard let self, !UpdateScope.isInsideUpdateBody(of: holdingWriters),
                    broadcaster.followedKeys?.contains(key) ?? true
                else { return }
                defaultsDidChange()
            }
            observers[key] = observer
            return observer
        }
        // Outside the lock: an observation may arrive on another thread as soon as it is added.
        if let observer { defaults.defaults.addObserver(observer, forKeyPath: key, context: nil) }
    }

    /// Removes every key-value observer; called when the suite's state goes.
    func removeKeyObservers() {
        for (key, observer) in keyObservers.withLock({ $0 }) {
            defaults.defaults.removeObserver(observer, forKeyPath: key)
        }
    }
}

/// Runs `didChange` for every key-value observation it receives, on the thread that made the
/// change, which may hold any lock.
final class KeyObserver: NSObject, Sendable {
    let didChange: @Sendable () -> Void

    init(didChange: @escaping @Sendable () -> Void) {
        self.didChange = didChange
        super.init()
    }

    override func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        didChange()
    }
}
#endif
