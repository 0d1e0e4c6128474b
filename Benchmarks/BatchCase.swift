import Foundation
import StoredSettings

/// A batch of 1,000 writes to a FileStore against one single write.
func runBatchCase(_ bench: Bench, folder: ScratchFolder) throws {
    bench.unavailable(
        "batch of 1,000 writes, FileStore", baseline: "one single write", target: 2,
        reason: "this build's FileStore has no batch API"
    )
}
