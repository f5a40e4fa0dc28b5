#if Server
    import Foundation
    import Synchronization
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The URLSession delegate of notification delivery: it follows no redirect (the 3xx is the answer, a failure, as
    /// Apple counts only a 2xx from the URL it was given), keeps none of a response's body and cancels the attempt once
    /// more than ``bodyLimit`` bytes of it came (the status decides), and hands each attempt's outcome to the one
    /// waiting for it.
    ///
    /// FoundationNetworking on Linux reads on until it processes the cancel, which a receiver sending fast can delay:
    /// what comes meanwhile is dropped as it arrives, and the attempt's timeout ends it in any case.
    final class DeliveryDelegate: NSObject, URLSessionDataDelegate, Sendable {
        /// The most bytes of a receiver's response body waited for; past it the attempt is cancelled.
        static let bodyLimit = 64 * 1024

        /// One attempt: who waits for its outcome, and how much body came.
        private struct Attempt {
            let done: @Sendable (String?) -> Void
            var bodyBytes = 0
            var isAbandoned = false
        }

        private let attempts = Mutex<[Int: Attempt]>([:])

        /// Waits for `task`'s outcome: `done` gets Apple's `sendAttemptResult`, or nil when the task was cancelled by
        /// the session's invalidation. Call before resuming the task.
        func watch(_ task: URLSessionTask, done: @escaping @Sendable (String?) -> Void) {
            attempts.withLock { $0[task.taskIdentifier] = Attempt(done: done) }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let abandon = attempts.withLock { attempts -> Bool in
                guard var attempt = attempts[dataTask.taskIdentifier], !attempt.isAbandoned else { return false }
                attempt.bodyBytes += data.count
                attempt.isAbandoned = attempt.bodyBytes > Self.bodyLimit
                attempts[dataTask.taskIdentifier] = attempt
                return attempt.isAbandoned
            }
            if abandon { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let attempt = attempts.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
            attempt.done(Self.result(task.response, attempt.isAbandoned ? nil : error))
        }

        /// Apple's `sendAttemptResult` for how a POST went, or nil when it was cancelled by the session's
        /// invalidation.
        static func result(_ response: URLResponse?, _ error: (any Error)?) -> String? {
            guard let error else {
                guard let http = response as? HTTPURLResponse else { return "INVALID_RESPONSE" }
                return (200...206).contains(http.statusCode) ? "SUCCESS" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
            }
            guard let error = error as? URLError else { return "OTHER" }
            switch error.code {
            case .cancelled: return nil
            case .timedOut: return "TIMED_OUT"
            case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
                return "NO_RESPONSE"
            case .networkConnectionLost: return "PREMATURE_CLOSE"
            case .secureConnectionFailed, .serverCertificateUntrusted: return "TLS_ISSUE"
            case .httpTooManyRedirects, .redirectToNonExistentLocation: return "CIRCULAR_REDIRECT"
            case .badServerResponse, .cannotParseResponse: return "INVALID_RESPONSE"
            default: return "OTHER"
            }
        }
    }
#endif
