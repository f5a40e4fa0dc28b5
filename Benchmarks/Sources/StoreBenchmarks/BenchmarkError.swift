/// A benchmark that could not run or whose workload did not do the work it claims to.
struct BenchmarkError: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    var description: String

    /// Creates an error.
    init(_ description: String) {
        self.description = description
    }
}
