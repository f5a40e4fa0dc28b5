import Dispatch
import FeedRunner
import Foundation
import Synchronization

#if Server
    import StoreServer
#endif

extension CommandLineTool {
    func demo(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(arguments, command: "demo", valued: Help.options["demo"] ?? [])
        if printsHelp(options, for: "demo") { return 0 }
        guard options.operands.isEmpty else {
            throw UsageError("demo takes no operands, only options; the demo feed is built in")
        }
        let log = try OutputFile(options.values["--log"] ?? "-", option: "--log", what: "the event log")
        let receipt = try options.values["--receipt-out"].map { (path) throws(UsageError) -> OutputFile in
            guard path != "-" else {
                throw UsageError(
                    "the receipt is binary DER: give --receipt-out a file (or /dev/stdout to pipe it), not -")
            }
            return try OutputFile(path, option: "--receipt-out", what: "the receipt")
        }
        if options.values["--log"] == nil, let receipt, receipt.identity == log.identity {
            throw UsageError(
                "--receipt-out \(receipt.path) is standard output, where the event log goes without --log; "
                    + "give --log FILE as well")
        }
        let outputs = [log] + (receipt.map { [$0] } ?? [])
        try OutputFile.checkDistinct(outputs)
        if let state = options.values["--state"] {
            for output in outputs { try output.checkNotAmong(Self.stateFiles(state)) }
        }
        let jwsDirectory = try options.values["--jws-out"].map { (path) throws(UsageError) -> (String, Bool) in
            try Self.checkOutputDirectory(path, option: "--jws-out")
        }
        let events = MemoryEventLog()
        let result: FeedResult
        do throws(FeedError) {
            result = try FeedRun.run(
                FeedRun.demo,
                file: "demo",
                log: events,
                includeReceipt: receipt != nil,
                includeSignedData: jwsDirectory != nil,
                statePath: options.values["--state"]
            )
        } catch {
            output.err("\(error)\n")
            return 2
        }
        try log.write(Data(events.text.utf8), standardOutput: standardOutputData)
        if let receipt {
            guard let bytes = result.receipt else { throw UsageError("the demo made no receipt to write") }
            try receipt.write(Data(bytes), standardOutput: standardOutputData)
        }
        if let (directory, exists) = jwsDirectory {
            try writeSignedData(result.signedData, to: directory, exists: exists, besides: outputs)
        }
        output.err(verdict(result) + "\n")
        return result.passed ? 0 : 1
    }

    func verdict(_ result: FeedResult) -> String {
        if let failure = result.failure { return "FAIL \(result.feed): \(failure)" }
        return "PASS \(result.feed) (\(result.steps) steps, \(result.expectations) expectations)"
    }

    func runFeeds(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(
            arguments, command: "run", valued: Help.options["run"] ?? [],
            flags: ["--serve", "--keep-serving", "--allow-remote"], multi: ["--api-key"])
        if printsHelp(options, for: "run") { return 0 }
        guard !options.operands.isEmpty else {
            throw UsageError("run needs at least one feed file, such as `openstorekit run Examples/purchase.feed`")
        }
        #if !Server
            if options.flags.contains("--serve") {
                output.err(Self.needsTrait("run --serve"))
                return 2
            }
        #endif
        let server = try feedServer(options)
        if server != nil, options.operands.count != 1 {
            throw UsageError("--serve serves the store of one feed; give one feed file")
        }
        guard options.values["--log"] == nil || options.values["--log-dir"] == nil else {
            throw UsageError("--log and --log-dir cannot be used together; give one of them")
        }
        let jobs = try options.integer("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...256)
        let feeds = options.operands
        let database = try StoreDatabaseOption(options, command: "run")
        if let database, database.isServer, feeds.count > 1 {
            throw UsageError(
                "--database with a server database's URL keeps the store of one feed; give one feed file (or a "
                    + "directory path to keep a state file per feed)")
        }
        let (statePaths, stateDirectory) =
            database?.isServer == true
            ? (database.map { [$0.value] }, nil) : try Self.statePaths(database, for: feeds)
        let commitsEveryChange: Bool
        switch options.values["--commit"] {
        case nil, "step": commitsEveryChange = false
        case "change": commitsEveryChange = true
        case let other?: throw UsageError("--commit takes `step` or `change`, not `\(other)`")
        }
        if options.values["--commit"] != nil, statePaths == nil {
            throw UsageError("--commit applies to durable stores; give --state PATH or --database PATH|URL as well")
        }
        try InputFile.mustExist(feeds)
        #if Server
            if server != nil, database?.isServer == false, let state = statePaths?.first {
                // Before the feed makes the state file: a refused history leaves nothing new behind.
                do throws(StoreServerError) {
                    try StoreServer.checkNotificationHistory(statePath: state)
                } catch {
                    throw UsageError(error.detail)
                }
            }
        #endif
        var outputs: [OutputFile] = []
        let combined = try options.values["--log"].map { (path) throws(UsageError) in
            try OutputFile(path, option: "--log", what: "the event log")
        }
        let junit = try options.values["--junit"].map { (path) throws(UsageError) in
            try OutputFile(path, option: "--junit", what: "the JUnit report")
        }
        if let combined { outputs.append(combined) }
        if let junit { outputs.append(junit) }
        var logFiles: [OutputFile]?
        var directories: [(path: String, failure: UsageError)] = []
        if let logDirectory = options.values["--log-dir"] {
            let failure = UsageError(
                "cannot create the log directory \(logDirectory) (--log-dir); check that its parent is writable")
            let exists = FileManager.default.fileExists(atPath: logDirectory)
            if !exists {
                guard Self.canCreateDirectory(logDirectory) else { throw failure }
                directories.append((logDirectory, failure))
            }
            let files = try feeds.indices.map { (index) throws(UsageError) in
                let file = "\(logDirectory)/\(Self.logName(for: feeds[index], index: index, among: feeds)).jsonl"
                let what = "the event log of \(feeds[index])"
                return exists
                    ? try OutputFile(file, option: "--log-dir", what: what)
                    : OutputFile(inNewDirectory: file, option: "--log-dir", what: what)
            }
            logFiles = files
            outputs += files
        }
        if let stateDirectory {
            let failure = UsageError("cannot create the state directory \(stateDirectory)")
            guard Self.canCreateDirectory(stateDirectory) else { throw failure }
            directories.append((stateDirectory, failure))
        }
        var inputs =
            feeds.map { (what: "the feed \($0)", path: $0) }
            + (database?.isServer == true ? [] : (statePaths ?? []).flatMap(Self.stateFiles))
        if !outputs.isEmpty {
            inputs += feeds.flatMap { feed in
                Self.configurationFiles(of: feed).map { (what: "the configuration file \($0) of \(feed)", path: $0) }
            }
        }
        for output in outputs { try output.checkNotAmong(inputs) }
        try OutputFile.checkDistinct(outputs)
        for directory in directories {
            do {
                try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
            } catch {
                throw directory.failure
            }
        }
        let scratch =
            combined == nil
            ? nil : FileManager.default.temporaryDirectory.appendingPathComponent("openstorekit-\(UUID().uuidString)")
        if let scratch {
            do {
                try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            } catch {
                throw UsageError(
                    "cannot create a scratch directory in \(FileManager.default.temporaryDirectory.path) for --log; "
                        + "set TMPDIR to a writable directory")
            }
        }
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        let scratchFiles = try scratch.map { (directory) throws(UsageError) in
            try feeds.indices.map { (index) throws(UsageError) in
                try OutputFile(
                    directory.appendingPathComponent("\(index).jsonl").path, option: "--log",
                    what: "the event log of \(feeds[index])")
            }
        }
        let feedLogs = logFiles ?? scratchFiles
        let outcomes = Mutex<[Int: Result<FeedResult, FeedError>]>([:])
        let next = Atomic<Int>(0)
        let workers = min(jobs, feeds.count)
        let standardOutput = standardOutputData
        let progress =
            output.isTerminal ? FeedProgress(feeds: feeds.count, clock: output.clock, write: output.err) : nil
        var serverProblem: String?
        #if Server
            if let server {
                // One feed, on this thread: its server answers while it runs.
                let outcome = Self.runOne(
                    feeds[0], log: feedLogs?[0], statePath: statePaths?[0], commitsEveryChange: commitsEveryChange,
                    standardOutput: standardOutput, server: server, progress: progress)
                server.finish()
                outcomes.withLock { $0[0] = outcome }
                next.store(feeds.count, ordering: .relaxed)
                serverProblem = server.historyProblem
            }
        #endif
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < feeds.count else { return }
                let path = feeds[index]
                let outcome = Self.runOne(
                    path, log: feedLogs?[index], statePath: statePaths?[index], commitsEveryChange: commitsEveryChange,
                    standardOutput: standardOutput, progress: progress)
                outcomes.withLock { $0[index] = outcome }
                progress?.finished(path)
            }
        }
        progress?.end()
        let results = outcomes.withLock { $0 }
        var passed = 0
        var failed = 0
        var malformed = 0
        for index in feeds.indices {
            switch results[index] {
            case .success(let result):
                output.err(verdict(result) + "\n")
                if result.passed { passed += 1 } else { failed += 1 }
            case .failure(let error):
                output.err("ERROR \(feeds[index]): \(error)\n")
                malformed += 1
            case nil:
                break
            }
        }
        if let combined, let scratchFiles {
            let writer = try combined.open(standardOutput: standardOutput)
            for file in scratchFiles {
                guard case .replace(let path) = file.destination, let handle = FileHandle(forReadingAtPath: path)
                else { continue }
                // Each feed's log is copied in chunks: a long run's log is never held whole.
                while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty { writer.write(chunk) }
                try? handle.close()
            }
            try writer.commit()
        }
        if let junit {
            let report = JUnitReport(feeds: feeds, results: results).xml
            try junit.write(Data(report.utf8), standardOutput: standardOutput)
        }
        output.err("\(passed) passed, \(failed + malformed) failed\n")
        if let serverProblem {
            output.err("openstorekit: \(serverProblem)\n")
            return 2
        }
        if malformed > 0 { return 2 }
        return failed > 0 ? 1 : 0
    }

    /// The state file of each feed: `--state` (or `--database`) itself for one feed, or a file per feed in the
    /// directory it names when several feeds run (or when it is an existing directory); with the directory to create
    /// first, when it does not exist yet (created only once every output has been checked).
    private static func statePaths(
        _ option: StoreDatabaseOption?, for feeds: [String]
    ) throws(UsageError) -> (paths: [String]?, directory: String?) {
        guard let state = option?.value, let name = option?.option else { return (nil, nil) }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: state, isDirectory: &isDirectory)
        guard feeds.count > 1 || (exists && isDirectory.boolValue) else { return ([state], nil) }
        if exists, !isDirectory.boolValue {
            throw UsageError(
                "\(name) names a file, but several feeds need a directory to keep one state file each")
        }
        let paths = feeds.indices.map { "\(state)/\(logName(for: feeds[$0], index: $0, among: feeds)).sqlite" }
        return (paths, exists ? nil : state)
    }

    /// Whether the directory `path` (which does not exist) could be created: its nearest existing ancestor is a
    /// writable directory.
    /// Checks that `path` is a directory outputs can be written into, or one that can be created; returns it and
    /// whether it exists.
    private static func checkOutputDirectory(_ path: String, option: String) throws(UsageError) -> (String, Bool) {
        guard !path.isEmpty, path != "-" else {
            throw UsageError("\(option) needs a directory, not \(path.isEmpty ? "an empty name" : "-")")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw UsageError(
                    "\(option) \(path) is a file, not a directory; give a directory (it is created if missing)")
            }
            guard access(path, W_OK | X_OK) == 0 else {
                throw UsageError("cannot write into \(path) (\(option)): permission denied")
            }
            return (path, true)
        }
        guard canCreateDirectory(path) else {
            throw UsageError("cannot create the directory \(path) (\(option)); check that its parent is writable")
        }
        return (path, false)
    }

    /// Writes one `.jws` file per signed value into `directory` (created when missing), through the output file
    /// rules.
    private func writeSignedData(
        _ files: [String: String], to directory: String, exists: Bool, besides others: [OutputFile]
    ) throws(UsageError) {
        let outputs = try files.keys.sorted().map { (name) throws(UsageError) -> (OutputFile, String) in
            let path = "\(directory)/\(name)"
            let what = "the signed data \(name)"
            let file =
                exists
                ? try OutputFile(path, option: "--jws-out", what: what)
                : OutputFile(inNewDirectory: path, option: "--jws-out", what: what)
            return (file, files[name] ?? "")
        }
        try OutputFile.checkDistinct(others + outputs.map(\.0))
        if !exists {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw UsageError("cannot create the directory \(directory) (--jws-out): \(error.localizedDescription)")
            }
        }
        for (file, jws) in outputs { try file.write(Data(jws.utf8), standardOutput: standardOutputData) }
    }

    private static func canCreateDirectory(_ path: String) -> Bool {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        while true {
            url = url.deletingLastPathComponent()
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
                return isDirectory.boolValue && access(url.path, W_OK | X_OK) == 0
            }
            if url.path == "/" { return false }
        }
    }

    /// A state file and the files the store keeps beside it (SQLite's `-wal` and `-shm`, the store's `.lock`), each
    /// with what it is, as inputs no output may overwrite.
    static func stateFiles(_ state: String) -> [(what: String, path: String)] {
        [(what: "the state file \(state)", path: state)]
            + ["-wal", "-shm", ".lock"].map {
                (what: "the \($0) file beside the state file \(state)", path: state + $0)
            }
    }

    private static func runOne(
        _ path: String, log: OutputFile?, statePath: String?, commitsEveryChange: Bool,
        standardOutput: @escaping @Sendable (Data) -> Void, server: (any FeedServer)? = nil,
        progress: FeedProgress? = nil
    ) -> Result<FeedResult, FeedError> {
        let url = URL(fileURLWithPath: path)
        let stepped = progress.map { progress in { (_: Int) in progress.stepped() } }
        guard let log else {
            return Result { () throws(FeedError) in
                try FeedRun.run(
                    contentsOf: url, file: path, statePath: statePath, commitsEveryChange: commitsEveryChange,
                    server: server, progress: stepped)
            }
        }
        let unwritable = { (error: UsageError) in
            FeedError(
                .unreadable, file: path, line: 0, column: 0, error.message,
                hint: "check that the log directory is writable")
        }
        let writer: OutputFileWriter
        do throws(UsageError) {
            writer = try log.open(standardOutput: standardOutput)
        } catch {
            return .failure(unwritable(error))
        }
        let events = OutputEventLog(writer: writer)
        let outcome = Result { () throws(FeedError) in
            try FeedRun.run(
                contentsOf: url, file: path, log: events, statePath: statePath, commitsEveryChange: commitsEveryChange,
                server: server, progress: stepped)
        }
        events.flush()
        do throws(UsageError) {
            try writer.commit()
        } catch {
            return .failure(unwritable(error))
        }
        return outcome
    }

    /// The `.storekit` files a feed's `config` steps name, resolved against the feed's directory (empty when the feed
    /// cannot be read: running it reports that).
    private static func configurationFiles(of feed: String) -> [String] {
        FeedRun.configurationFiles(contentsOf: URL(fileURLWithPath: feed))
    }

    /// The log file name of a feed: its base name, with its position when two feeds share a name.
    private static func logName(for path: String, index: Int, among feeds: [String]) -> String {
        let base = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let clashes = feeds.filter { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent == base }.count
        return clashes > 1 ? "\(base)-\(index + 1)" : base
    }
}
