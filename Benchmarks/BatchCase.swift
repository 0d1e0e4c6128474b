import Foundation
import StoredSettings

/// A batch of 1,000 writes to a FileStore against one single write.
///
/// Both work on the same 1,000-key file: the batch gives every key a new value, the single
/// write changes one key. Each writes the whole file once, durably.
func runBatchCase(_ bench: Bench, folder: ScratchFolder) throws {
    var values = sampleValues(count: 1_000)
    let keys = Array(values.keys)
    values[flagKey] = .bool(false)
    let url = folder.file("batch.json")
    try StoredValueJSON.data(from: .dictionary(values)).write(to: url)
    let store = try FileStore(url: url)
    var round: Int64 = 0
    let flag = Stored(flagKey, default: false, store: store)
    var current = false
    try bench.compare(
        Workload("batch of 1,000 writes, FileStore", iterations: 1) { n in
            for _ in 0..<n {
                round += 1
                try store.batch { batch in
                    for key in keys { try batch.setValue(.int(round), forKey: key) }
                }
            }
        },
        against: Workload("one single write", iterations: 1) { n in
            for _ in 0..<n {
                current.toggle()
                try flag.save(current)
            }
        },
        target: 2, slow: true
    )
}
