package import StoredSettings

/// A durability hook a test installs and removes while its store lives: the store is made with
/// options ``hooked(_:)`` by the switch, and makes every step as usual while none is installed.
package final class DurabilityHookSwitch: Sendable {
    private let action = Lock<(@Sendable (DurabilityHook.Step) throws -> Bool)?>(nil)

    package init() {}

    /// Runs `action` before each durable step of the store's writes from now on.
    package func install(_ action: @escaping @Sendable (DurabilityHook.Step) throws -> Bool) {
        self.action.withLock { $0 = action }
    }

    /// Lets every step run as usual again.
    package func remove() {
        action.withLock { $0 = nil }
    }

    fileprivate var hook: DurabilityHook {
        DurabilityHook { [action] step in try action.withLock { $0 }?(step) ?? true }
    }
}

extension FileStore.Options {
    /// These options, with `hooks` run before each durable step of the store's writes.
    package func hooked(_ hooks: DurabilityHookSwitch) -> FileStore.Options {
        var options = self
        options.durabilityHook = hooks.hook
        return options
    }
}
