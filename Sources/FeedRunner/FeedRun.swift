public import Foundation

/// Runs feeds: checks the whole feed first (nothing runs if a line is malformed), then parses it again as it carries
/// out every step on a fresh manual store, writing the event log and checking expectations. A feed file is read line
/// by line both times (``FeedFile``): neither its text nor its steps are held whole.
public enum FeedRun {
    /// Runs feed text.
    ///
    /// - Parameters:
    ///   - text: the feed.
    ///   - file: its name, for errors and the verdict.
    ///   - baseDirectory: where `config` paths are resolved; the current directory when `nil`.
    ///   - log: where the event log goes.
    ///   - includeReceipt: whether the result carries the current user's signed app receipt at the end.
    ///   - includeSignedData: whether the result carries every StoreKit 2 JWS the store signs at the end
    ///     (``FeedResult/signedData``).
    ///   - statePath: a state file to run on instead of a fresh in-memory store, or a server database's URL (as
    ///     `SimulatedStore(database:)` takes it): a new one starts empty, an existing one goes on from where it
    ///     stopped, and a `restart` step closes the store and reopens it from the file or database.
    ///     The store commits once per step (`StoreDurability.Commit.onFlush`, `synchronous=NORMAL`):
    ///     a run killed mid-way leaves the file as it was after its last complete step.
    ///   - commitsEveryChange: commit every change instead, each flushed to the disk (`synchronous=FULL`) before it
    ///     is applied, as a crash test of app code needs.
    ///   - server: the server that serves the feed's store (`run --serve`): it starts before the first step, answers
    ///     `expect notification` steps, and finishes before the store closes; a `restart` step then keeps the store
    ///     open. Without one, a feed that expects notifications is refused (`needsServer`).
    /// - Throws: ``FeedError`` when the feed is malformed, `unusableState` when the state file cannot be opened,
    ///   reopened or written, `needsServer` or `serverUnavailable`; failed expectations are in the result instead.
    public static func run(
        _ text: String,
        file: String,
        baseDirectory: URL? = nil,
        log: any EventLogSink = DiscardingEventLog(),
        includeReceipt: Bool = false,
        includeSignedData: Bool = false,
        statePath: String? = nil,
        commitsEveryChange: Bool = false,
        server: (any FeedServer)? = nil
    ) throws(FeedError) -> FeedResult {
        try FeedInterpreter(
            file: file, baseDirectory: baseDirectory, sink: log, statePath: statePath,
            commitsEveryChange: commitsEveryChange, server: server
        ).run(.text(text), includeReceipt: includeReceipt, includeSignedData: includeSignedData)
    }

    /// Reads and runs a feed file; `file` names it in errors and the verdict (the path by default).
    ///
    /// - Parameters:
    ///   - url: The feed file.
    ///   - file: The name of the feed in errors and the verdict; the path by default.
    ///   - log: Where the event log goes; nowhere by default.
    ///   - statePath: a state file to run on, as for
    ///     ``run(_:file:baseDirectory:log:includeReceipt:includeSignedData:statePath:commitsEveryChange:server:)``.
    ///   - commitsEveryChange: commit every change instead of once per step.
    ///   - server: the server that serves the feed's store, as for
    ///     ``run(_:file:baseDirectory:log:includeReceipt:includeSignedData:statePath:commitsEveryChange:server:)``.
    ///   - progress: called after each step the run carries out, with the number of steps run so far (the check
    ///     that comes first runs none).
    /// - Throws: ``FeedError`` when the file cannot be read (missing, a directory, not UTF-8 text, changed while it
    ///   runs) or is malformed, or the state file is unusable.
    public static func run(
        contentsOf url: URL,
        file: String? = nil,
        log: any EventLogSink = DiscardingEventLog(),
        statePath: String? = nil,
        commitsEveryChange: Bool = false,
        server: (any FeedServer)? = nil,
        progress: ((Int) -> Void)? = nil
    ) throws(FeedError) -> FeedResult {
        let feed = try FeedFile(contentsOf: url, file: file)
        let interpreter = try FeedInterpreter(
            file: feed.file, baseDirectory: url.deletingLastPathComponent(), sink: log, statePath: statePath,
            commitsEveryChange: commitsEveryChange, server: server
        )
        interpreter.progress = progress
        return try interpreter.run(.file(feed))
    }

    /// The `.storekit` files the `config` steps of a feed file name, resolved against the feed's directory, read line
    /// by line without checking the feed; empty when the feed cannot be read or is not a regular file (a pipe is
    /// read only once, by the run).
    public static func configurationFiles(contentsOf url: URL) -> [String] {
        guard let feed = try? FeedFile(contentsOf: url), feed.isRegularFile else { return [] }
        let directory = url.deletingLastPathComponent()
        var files: [String] = []
        try? feed.forEachLine { (_, line: Substring) throws(FeedError) in
            guard line.contains("config") else { return }
            let words = FeedLexer.tokenize(line).map(\.word)
            guard words.count >= 2, words[0] == "config", words[1] != "demo" else { return }
            files.append(URL(fileURLWithPath: words[1], relativeTo: directory).standardizedFileURL.path)
        }
        return files
    }
}
