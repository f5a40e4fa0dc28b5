/// One measured thing inside a benchmark: the code under test, a variant of it, or a baseline.
///
/// `make` does the set-up (not timed) and returns the body, which is timed; the body does `items` items of work and
/// returns how many it completed, which the runner checks, so a broken workload fails loudly instead of looking fast.
struct Workload {
    /// Whether a workload is code under test or something to compare it with.
    enum Role: String, Codable, Sendable {
        /// The code under test, or a variant of it (another batch size, another path).
        case variant
        /// A reference the code under test is compared with.
        case baseline
    }

    /// A short human name, such as "queue, one purchase at a time".
    var label: String
    /// Code under test or baseline.
    var role: Role
    /// How many items one run of the body does.
    var items: Int
    /// Sets up and returns the timed body.
    var make: () -> () -> Int

    /// Creates a workload.
    init(_ label: String, role: Role = .variant, items: Int, make: @escaping () -> () -> Int) {
        self.label = label
        self.role = role
        self.items = items
        self.make = make
    }
}
