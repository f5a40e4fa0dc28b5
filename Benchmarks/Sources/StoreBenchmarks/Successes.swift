/// Runs `body` `count` times and returns how many times it succeeded: what a workload returns as items completed.
@inline(__always)
func successes(_ count: Int, _ body: () -> Bool) -> Int {
    var succeeded = 0
    for _ in 0..<count where body() { succeeded += 1 }
    return succeeded
}
