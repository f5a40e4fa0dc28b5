/// The Levenshtein distance between identifiers, to suggest the closest names for a misspelt one (a feed's step or
/// product, a command of the `openstorekit` tool).
package enum EditDistance {
    /// The number of single-character insertions, deletions and substitutions that turn `a` into `b`; stops counting
    /// past `limit` (returning `limit + 1`).
    package static func between(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
                rowMinimum = min(rowMinimum, current[j])
            }
            guard rowMinimum <= limit else { return limit + 1 }
            swap(&previous, &current)
        }
        return min(previous[b.count], limit + 1)
    }

    /// Up to three of `candidates` closest to `name`: within a third of its length (at least 2 edits), nearest first,
    /// then in alphabetical order.
    package static func closest(to name: String, among candidates: [String]) -> [String] {
        let target = Array(name)
        let limit = max(2, target.count / 3)
        var scored: [(distance: Int, name: String)] = []
        for candidate in Set(candidates) {
            let distance = between(target, Array(candidate), limit: limit)
            if distance <= limit { scored.append((distance, candidate)) }
        }
        scored.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
        return scored.prefix(3).map(\.name)
    }
}
