import Foundation
import StoredSettings

/// Decoding a `Profile` from its stored tree, uncached, against `JSONDecoder` on JSON bytes.
func runProfileDecodeCase(_ bench: Bench) throws {
    bench.unavailable(
        "Profile decode from StoredValue, uncached", baseline: "JSONDecoder from JSON bytes", target: 0.5,
        reason: "this build has no Codable bridge (StoredValueDecoder)"
    )
}
