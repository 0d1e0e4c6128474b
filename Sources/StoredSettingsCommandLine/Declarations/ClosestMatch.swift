/// The candidate `name` is most likely a misspelling of, for a did-you-mean hint: the only one
/// within a third of the name's length in edits (letters compared without case and `.-_`).
package func closestMatch(to name: String, among candidates: some Sequence<String>) -> String? {
    func squeezed(_ text: String) -> [Character] {
        Array(text.lowercased().filter { !".-_".contains($0) })
    }
    let target = squeezed(name)
    let limit = max(1, target.count / 3)
    var best: (candidate: String, distance: Int)?
    var tie = false
    for candidate in candidates where candidate != name {
        let distance = editDistance(target, squeezed(candidate))
        guard distance <= limit else { continue }
        if let current = best, distance >= current.distance {
            if distance == current.distance, candidate != current.candidate { tie = true }
            continue
        }
        best = (candidate, distance)
        tie = false
    }
    return tie ? nil : best?.candidate
}

/// The optimal string alignment distance: the fewest insertions, deletions, substitutions and
/// swaps of neighbouring letters (`jbos` for `jobs`) that turn `a` into `b`.
package func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    // Three rows of the distance table: for a[..<i-2], a[..<i-1] and a[..<i].
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                current[j] = min(current[j], beforePrevious[j - 2] + 1)
            }
        }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
}
