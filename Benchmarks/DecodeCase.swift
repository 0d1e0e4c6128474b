import Foundation
import StoredSettings

/// Decoding a `Profile` from its stored tree, uncached, against `JSONDecoder` on JSON bytes.
///
/// The case goes through the Codable bridge (`Profile(storedValue:)`, which runs
/// `StoredValueDecoder`), as an uncached `@Stored<Profile>` read does; the baseline reuses one
/// `JSONDecoder` on the JSON that `JSONEncoder` makes of the same profile.
func runProfileDecodeCase(_ bench: Bench) throws {
    let tree = try Profile.sample.storedValue()
    guard try Profile(storedValue: tree) == Profile.sample else {
        throw BenchmarkError("Profile does not decode from its tree")
    }
    let json = try JSONEncoder().encode(Profile.sample)
    let decoder = JSONDecoder()
    guard try decoder.decode(Profile.self, from: json) == Profile.sample else {
        throw BenchmarkError("Profile does not decode from JSON")
    }
    try bench.compare(
        Workload("Profile decode from StoredValue, uncached") { n in
            var total = 0
            for _ in 0..<n { total &+= try Profile(storedValue: tree).launchCount }
            blackHole(total)
        },
        against: Workload("JSONDecoder from JSON bytes") { n in
            var total = 0
            for _ in 0..<n { total &+= try decoder.decode(Profile.self, from: json).launchCount }
            blackHole(total)
        },
        target: 0.5
    )
}
