import Dispatch
import FeedRunner
import Foundation
import Synchronization

extension CommandLineTool {
    func demo(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(arguments, command: "demo", valued: ["--log", "--receipt-out", "--state"])
        guard options.operands.isEmpty else { throw UsageError("demo takes no operands") }
        let log = MemoryEventLog()
        let result: FeedResult
        do throws(FeedError) {
            result = try FeedRun.run(
                FeedRun.demo,
                file: "demo",
                log: log,
                includeReceipt: options.values["--receipt-out"] != nil,
                statePath: options.values["--state"]
            )
        } catch {
            output.err("\(error)\n")
            return 2
        }
        if let path = options.values["--log"] {
            guard FileManager.default.createFile(atPath: path, contents: Data(log.text.utf8)) else {
                throw UsageError("cannot write the event log to \(path)")
            }
        } else {
            output.out(log.text)
        }
        if let path = options.values["--receipt-out"] {
            guard let receipt = result.receipt, FileManager.default.createFile(atPath: path, contents: Data(receipt))
            else { throw UsageError("cannot write the receipt to \(path)") }
        }
        output.out(verdict(result) + "\n")
        return result.passed ? 0 : 1
    }

    func verdict(_ result: FeedResult) -> String {
        if let failure = result.failure { return "FAIL \(result.feed): \(failure)" }
        return "PASS \(result.feed) (\(result.steps) steps, \(result.expectations) expectations)"
    }

    func runFeeds(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(
            arguments, command: "run", valued: ["--log", "--log-dir", "--junit", "--jobs", "--state"])
        guard !options.operands.isEmpty else { throw UsageError("run needs at least one feed file") }
        guard options.values["--log"] == nil || options.values["--log-dir"] == nil else {
            throw UsageError("--log and --log-dir cannot be used together")
        }
        let jobs = try options.integer("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...256)
        let feeds = options.operands
        let statePaths = try Self.statePaths(options.values["--state"], for: feeds)
        let logDirectory = options.values["--log-dir"]
        if let logDirectory {
            do {
                try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
            } catch {
                throw UsageError("cannot create the log directory \(logDirectory)")
            }
        }
        let scratch =
            options.values["--log"] == nil
            ? nil : FileManager.default.temporaryDirectory.appendingPathComponent("openstorekit-\(UUID().uuidString)")
        if let scratch { try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true) }
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }

        let outcomes = Mutex<[Int: Result<FeedResult, FeedError>]>([:])
        let done = Atomic<Int>(0)
        let next = Atomic<Int>(0)
        let workers = min(jobs, feeds.count)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < feeds.count else { return }
                let path = feeds[index]
                let logPath: String? =
                    logDirectory.map { "\($0)/\(Self.logName(for: path, index: index, among: feeds)).jsonl" }
                    ?? scratch.map { $0.appendingPathComponent("\(index).jsonl").path }
                let outcome = Self.runOne(path, logPath: logPath, statePath: statePaths?[index])
                outcomes.withLock { $0[index] = outcome }
                let finished = done.add(1, ordering: .relaxed).newValue
                if output.isTerminal, feeds.count > 1 {
                    output.err("\r[\(finished)/\(feeds.count)] \(path)\u{1B}[K")
                }
            }
        }
        if output.isTerminal, feeds.count > 1 { output.err("\r\u{1B}[K") }

        let results = outcomes.withLock { $0 }
        var passed = 0
        var failed = 0
        var malformed = 0
        for index in feeds.indices {
            switch results[index] {
            case .success(let result):
                output.out(verdict(result) + "\n")
                if result.passed { passed += 1 } else { failed += 1 }
            case .failure(let error):
                output.out("ERROR \(feeds[index]): \(error)\n")
                malformed += 1
            case nil:
                break
            }
        }
        if let logPath = options.values["--log"], let scratch {
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            guard let handle = FileHandle(forWritingAtPath: logPath) else {
                throw UsageError("cannot write the event log to \(logPath)")
            }
            for index in feeds.indices {
                if let data = FileManager.default.contents(
                    atPath: scratch.appendingPathComponent("\(index).jsonl").path)
                {
                    handle.write(data)
                }
            }
            try? handle.close()
        }
        if let junit = options.values["--junit"] {
            let report = JUnitReport(feeds: feeds, results: results).xml
            guard FileManager.default.createFile(atPath: junit, contents: Data(report.utf8)) else {
                throw UsageError("cannot write the JUnit report to \(junit)")
            }
        }
        output.out("\(passed) passed, \(failed + malformed) failed\n")
        if malformed > 0 { return 2 }
        return failed > 0 ? 1 : 0
    }

    /// The state file of each feed: `--state` itself for one feed, or a file per feed in the directory `--state`
    /// names when several feeds run (or when it is an existing directory).
    private static func statePaths(_ state: String?, for feeds: [String]) throws(UsageError) -> [String]? {
        guard let state else { return nil }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: state, isDirectory: &isDirectory)
        guard feeds.count > 1 || (exists && isDirectory.boolValue) else { return [state] }
        if !exists {
            do {
                try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            } catch {
                throw UsageError("cannot create the state directory \(state)")
            }
        } else if !isDirectory.boolValue {
            throw UsageError("--state names a file, but several feeds need a directory to keep one state file each")
        }
        return feeds.indices.map { "\(state)/\(logName(for: feeds[$0], index: $0, among: feeds)).sqlite" }
    }

    private static func runOne(_ path: String, logPath: String?, statePath: String?) -> Result<FeedResult, FeedError> {
        let url = URL(fileURLWithPath: path)
        guard let logPath else {
            return Result { () throws(FeedError) in try FeedRun.run(contentsOf: url, file: path, statePath: statePath) }
        }
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: logPath) else {
            return .failure(
                FeedError(
                    .unreadable, file: path, line: 0, column: 0, "cannot write its event log to \(logPath)",
                    hint: "check that the log directory is writable")
            )
        }
        let log = FileEventLog(handle: handle)
        defer {
            log.flush()
            try? handle.close()
        }
        return Result { () throws(FeedError) in
            try FeedRun.run(contentsOf: url, file: path, log: log, statePath: statePath)
        }
    }

    /// The log file name of a feed: its base name, with its position when two feeds share a name.
    private static func logName(for path: String, index: Int, among feeds: [String]) -> String {
        let base = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let clashes = feeds.filter { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent == base }.count
        return clashes > 1 ? "\(base)-\(index + 1)" : base
    }
}
