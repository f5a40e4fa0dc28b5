/// The median, minimum and maximum of a set of samples.
struct Summary: Codable, Sendable {
    /// The middle sample (the mean of the two middle ones for an even count).
    var median: Double
    /// The smallest sample.
    var min: Double
    /// The largest sample.
    var max: Double
    /// How many samples there were.
    var samples: Int

    /// Summarises samples; an empty set gives zeros.
    init(_ values: [Double]) {
        let sorted = values.sorted()
        samples = sorted.count
        guard let first = sorted.first, let last = sorted.last else {
            median = 0
            min = 0
            max = 0
            return
        }
        min = first
        max = last
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
