import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// A decoded value the cache lets go of is released after the cache's lock: the caches share
/// 64 locks, so a `deinit` there that reads another setting could otherwise wait for itself.
@Suite(.timeLimit(TestScale.hangGuard))
struct DecodedCacheReleaseTests {
    @Test func aValueWhoseDeinitReadsAnotherSettingIsReplacedWithoutWaiting() throws {
        let store = InMemoryStore()
        // 500 settings: with 64 shared locks, some share one with `watched` (1 - (63/64)^500).
        let settings = (0..<500).map { Stored("held\($0)", default: Held(read: nil), store: store) }
        for (index, setting) in settings.enumerated() {
            try store.setValue(.dictionary(["number": .int(1)]), forKey: "held\(index)")
            #expect(setting.wrappedValue.number == 1)
            try store.setValue(.dictionary(["number": .int(2)]), forKey: "held\(index)")
            // Decoding again replaces the decoded value whose deinit reads `watched`.
            #expect(setting.wrappedValue.number == 2)
        }
        #expect(watchedReads.withLock { $0 } >= 500)
    }
}

/// A structured setting, read through its decoded-value cache.
private let watched = Stored("watched", default: [0], store: InMemoryStore(["watched": .array([.int(1)])]))
private let watchedReads = Lock(0)

/// Reads `watched` when released.
private final class Ticket: Sendable {
    let read: Bool
    init(read: Bool) { self.read = read }
    deinit {
        guard read else { return }
        _ = watched.wrappedValue
        watchedReads.withLock { $0 += 1 }
    }
}

private struct Held: StoredValueConvertible {
    var number: Int64 = 0
    var ticket: Ticket

    init(read: Bool?) { ticket = Ticket(read: read ?? false) }

    init(storedValue: StoredValue) throws {
        // A dictionary: structured values are the ones the cache keeps.
        guard case .dictionary(let fields) = storedValue, case .int(let number)? = fields["number"] else {
            throw StorageError(.typeMismatch)
        }
        self.number = number
        ticket = Ticket(read: true)
    }

    func storedValue() throws -> StoredValue { .dictionary(["number": .int(number)]) }
}
