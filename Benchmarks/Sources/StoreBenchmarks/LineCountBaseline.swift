/// The floor of `feed.run`: one pass over the feed's bytes that finds its lines and counts those that hold a step
/// (not empty, not a comment), with no tokenizing and no allocation.
struct LineCountBaseline {
    /// The feed text.
    let text: String

    /// Counts the step lines, or only those before the 1-based line `limit`.
    func count(before limit: Int = .max) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var steps = 0
            var line = 1
            var counted = false
            for byte in bytes {
                if byte == 0x0A {
                    line += 1
                    if line >= limit { break }
                    counted = false
                } else if !counted && byte != 0x20 && byte != 0x09 && byte != 0x0D {
                    if byte != 0x23 { steps += 1 }
                    counted = true
                }
            }
            return steps
        }
    }
}
