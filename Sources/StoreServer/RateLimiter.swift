#if Server
    import Synchronization

    /// Counts App Store Server API requests per endpoint in fixed windows of an hour of the store's clock (from one
    /// whole hour to the next), and refuses those past the endpoint's limit until the next window.
    ///
    /// It keeps one window per endpoint: its memory and the cost of a request do not grow with the requests made. A
    /// clock moved to another hour (forward or back) starts a new window.
    final class RateLimiter: Sendable {
        /// The length of a window, in milliseconds.
        static let window: Int64 = 3_600_000

        /// The limits enforced.
        let limits: RateLimits
        private let windows: Mutex<[APIEndpoint: Window]> = Mutex([:])

        private struct Window {
            /// Which hour since 1970 the window is.
            var hour: Int64
            /// The requests admitted in it.
            var count: Int
        }

        /// Creates a limiter with no request counted.
        init(limits: RateLimits) {
            self.limits = limits
        }

        /// Counts a request to `endpoint` made at `now` (store time, milliseconds since 1970).
        ///
        /// - Returns: nil when the request is admitted; otherwise when the next one will be, in milliseconds since
        ///   1970 (the start of the next window), and nothing is counted.
        func admit(_ endpoint: APIEndpoint, at now: Int64) -> Int64? {
            guard let limit = limits.requestsPerHour(endpoint) else { return nil }
            let hour = now >= 0 ? now / Self.window : (now + 1) / Self.window - 1
            return windows.withLock { windows -> Int64? in
                var window = windows[endpoint] ?? Window(hour: hour, count: 0)
                if window.hour != hour { window = Window(hour: hour, count: 0) }
                guard window.count < limit else { return (hour + 1) * Self.window }
                window.count += 1
                windows[endpoint] = window
                return nil
            }
        }
    }
#endif
