import Foundation

extension FeedInterpreter {
    /// Starts the server of a served run; refuses a feed that expects notifications without one.
    func startServing(_ firstNotificationExpectation: (line: Int, column: Int)?) throws(FeedError) {
        guard let server else {
            guard let (line, column) = firstNotificationExpectation else { return }
            throw FeedError(
                .needsServer, file: file, line: line, column: column,
                "notifications are sent only while the store is served",
                hint: "run the feed with --serve (openstorekit run FEED --serve, in a build with --traits Server)")
        }
        if let failure = server.start(serving: store) {
            throw FeedError(
                .serverUnavailable, file: file, line: 0, column: 0, failure,
                hint: "choose another --port (0 lets the system pick one), or free the one given")
        }
    }
}
