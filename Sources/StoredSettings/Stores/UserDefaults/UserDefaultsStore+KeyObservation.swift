#if canImport(ObjectiveC)
import Foundation

// Key-value observation of single keys (Apple platforms), which, unlike
// `didChangeNotification`, also tells of other processes' writes; modelled on swift-sharing's
// `AppStorageKey`.
extension SuiteState {
    /// Observes `key` of the suite's defaults for as long as the suite's state lives, comparing
    /// the followed keys on each observation. Never removed earlier: key-value observation does
    /// not retain observers, so removal during a delivery could free one mid-call. A key with a
    /// `.` or a leading `@` is a key path to key-value observation, so it is left out.
    func observeOtherProcesses(forKey key: String) {
        guard !key.isEmpty, !key.contains("."), !key.hasPrefix("@") else { return }
        let observer = keyObservers.withLock { observers -> KeyObserver? in
            guard observers[key] == nil else { return nil }
            let observer = KeyObserver { [weak self] in
                // This process's stores deliver their own commits.
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
