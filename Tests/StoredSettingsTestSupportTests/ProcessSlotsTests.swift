import StoredSettingsTestSupport
import Testing

/// `ProcessSlots`, the semaphore the etcd tests share: a wait for slots that are taken ends
/// with a release or a cancellation, and a cancelled wait takes nothing.
@Suite(.timeLimit(.hangGuard))
struct ProcessSlotsTests {
    @Test func aWaitForTakenSlotsEndsWhenTheyAreReleased() async throws {
        let slots = ProcessSlots(capacity: 3)
        try await slots.acquire(3)
        let waiter = Task { try await slots.acquire(2) }
        slots.release(3)
        try await waiter.value
        // One slot is left: the waiter took two of the three.
        try await slots.acquire(1)
    }

    @Test func aCancelledWaitThrowsAndTakesNoSlot() async throws {
        let slots = ProcessSlots(capacity: 1)
        try await slots.acquire(1)
        let waiter = Task { try await slots.acquire(1) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        slots.release(1)
        try await slots.acquire(1)
    }

    @Test func moreThanTheCapacityTakesEverySlot() async throws {
        let slots = ProcessSlots(capacity: 2)
        try await slots.acquire(5)
        let waiter = Task { try await slots.acquire(1) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }
}
