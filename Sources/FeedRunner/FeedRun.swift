public import Foundation

/// Runs feeds: parses the whole feed first (nothing runs if a line is malformed), then carries out every step on a
/// fresh manual store, writing the event log and checking expectations.
public enum FeedRun {
    /// Runs feed text.
    ///
    /// - Parameters:
    ///   - text: the feed.
    ///   - file: its name, for errors and the verdict.
    ///   - baseDirectory: where `config` paths are resolved; the current directory when `nil`.
    ///   - log: where the event log goes.
    ///   - includeReceipt: whether the result carries the current user's signed app receipt at the end.
    /// - Throws: ``FeedError`` when the feed is malformed; failed expectations are in the result instead.
    public static func run(
        _ text: String,
        file: String,
        baseDirectory: URL? = nil,
        log: any EventLogSink = DiscardingEventLog(),
        includeReceipt: Bool = false
    ) throws(FeedError) -> FeedResult {
        try FeedInterpreter(file: file, baseDirectory: baseDirectory, sink: log).run(
            text, includeReceipt: includeReceipt)
    }

    /// Reads and runs a feed file; `file` names it in errors and the verdict (the path by default).
    ///
    /// - Throws: ``FeedError`` when the file cannot be read or is malformed.
    public static func run(
        contentsOf url: URL,
        file: String? = nil,
        log: any EventLogSink = DiscardingEventLog()
    ) throws(FeedError) -> FeedResult {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw FeedError(
                .unreadable,
                file: file ?? url.path,
                line: 0,
                column: 0,
                "cannot read the feed (\(error.localizedDescription))",
                hint: "check the path and that the file is UTF-8 text"
            )
        }
        return try run(text, file: file ?? url.path, baseDirectory: url.deletingLastPathComponent(), log: log)
    }
}
