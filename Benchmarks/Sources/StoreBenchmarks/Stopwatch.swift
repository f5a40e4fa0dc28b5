#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Monotonic time in nanoseconds, read straight from the kernel.
enum Stopwatch {
    /// Nanoseconds since an arbitrary fixed point.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Runs `body` and returns its result with the nanoseconds it took.
    @inline(__always)
    static func time<Result>(_ body: () throws -> Result) rethrows -> (result: Result, nanoseconds: UInt64) {
        let start = now()
        let result = try body()
        let end = now()
        return (result, end - start)
    }
}
