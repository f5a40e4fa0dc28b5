import FeedRunner
import Foundation
import Testing

/// Writes `bytes` to a new file in a fresh temporary directory and returns its URL.
func temporaryFeed(_ bytes: [UInt8], name: String = "input.feed") throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feed-input-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url
}

/// The error a feed run throws, or nil if it runs.
func feedError(_ run: () throws(FeedError) -> FeedResult) -> FeedError? {
    do {
        _ = try run()
        return nil
    } catch {
        return error
    }
}

@Suite("Reading feed files")
struct FeedInputTests {
    @Test("CRLF line ends are line ends: every step runs, errors name the right line")
    func crlf() throws {
        let url = try temporaryFeed(
            Array(
                "# bought on Windows\r\nbuy com.example.pro as pro\r\nexpect states pro purchasing purchased\r\n".utf8))
        let result = try FeedRun.run(contentsOf: url, file: "crlf.feed")
        #expect(result.passed, "\(result.failure?.description ?? "")")
        #expect(result.steps == 2)
        #expect(result.expectations == 1)

        let failing = try FeedRun.run("buy com.example.pro as pro\r\nexpect state pro failed\r\n", file: "f")
        #expect(failing.failure?.line == 2)
        #expect(failing.failure?.step == "expect state pro failed")

        let error = feedError { () throws(FeedError) in
            try FeedRun.run("buy com.example.pro\r\nexpect sunshine", file: "f")
        }
        #expect(error == FeedError(.invalidValue, file: "f", line: 2, column: 8, "", hint: ""))
    }

    @Test("A lone carriage return ends a line too")
    func loneCarriageReturn() throws {
        let result = try FeedRun.run(
            "buy com.example.pro as pro\rexpect state pro purchased\r\rexpect removed pro", file: "f")
        #expect(result.passed, "\(result.failure?.description ?? "")")
        #expect(result.steps == 3)
        let error = feedError { () throws(FeedError) in
            try FeedRun.run("buy com.example.pro\r\rexpect sunshine", file: "f")
        }
        #expect(error?.line == 3)
    }

    @Test("A UTF-8 byte order mark before the first step is skipped")
    func byteOrderMark() throws {
        let url = try temporaryFeed(
            [0xEF, 0xBB, 0xBF] + Array("buy com.example.pro as pro\r\nexpect removed pro\r\n".utf8))
        #expect(try FeedRun.run(contentsOf: url).passed)
    }

    @Test(
        "A feed without steps is an error, not a pass",
        arguments: ["", "\n\n", "# only a comment", "# a comment\r\n# and another\r\n", "   \t\r\n  # indented\r"])
    func noSteps(text: String) throws {
        let url = try temporaryFeed(Array(text.utf8))
        let error = feedError { () throws(FeedError) in try FeedRun.run(contentsOf: url, file: "empty.feed") }
        #expect(error?.code == .noSteps, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("empty.feed:1:1: error: the feed has no steps") == true)
    }

    @Test(
        "Bytes that are not UTF-8, and binary files, are reported where they are",
        arguments: [
            (Array("buy com.example.pro\nexpect ".utf8) + [0xFF, 0x41], 2, 8),
            (Array("buy com.example.pro\r\nbuy com.".utf8) + [0x00, 0x01, 0x02], 2, 9),
            ([0xC3, 0x28], 1, 1),
            (Array("buy com.example.pro as ".utf8) + [0xED, 0xA0, 0x80], 1, 24),
            (Array("buy com.example.pro as caf\u{E9}\n\u{1B}[0m".utf8), 2, 1),
        ] as [([UInt8], Int, Int)]
    )
    func notText(bytes: [UInt8], line: Int, column: Int) throws {
        let url = try temporaryFeed(bytes)
        let log = MemoryEventLog()
        let error = feedError { () throws(FeedError) in try FeedRun.run(contentsOf: url, file: "bin.feed", log: log) }
        #expect(
            error == FeedError(.notText, file: "bin.feed", line: line, column: column, "", hint: ""),
            "\(String(describing: error))")
        #expect(error?.description.hasPrefix("bin.feed:\(line):\(column): error: ") == true)
        #expect(error?.hint.contains("UTF-8") == true)
        #expect(log.lines.isEmpty)
    }

    @Test("A NUL byte is named as the mark of a binary file; an endless device is not read to its end")
    func binaryDevice() throws {
        let url = try temporaryFeed([0x7F, 0x45, 0x4C, 0x46, 0x00, 0x02, 0x01, 0x01])
        let error = feedError { () throws(FeedError) in try FeedRun.run(contentsOf: url, file: "a.out") }
        #expect(error?.message.contains("U+0000 (NUL)") == true, "\(String(describing: error))")
        #expect(error?.message.contains("binary file") == true)
        #expect(error?.column == 5)
        if FileManager.default.fileExists(atPath: "/dev/zero") {
            let zero = feedError { () throws(FeedError) in
                try FeedRun.run(contentsOf: URL(fileURLWithPath: "/dev/zero"))
            }
            #expect(zero == FeedError(.notText, file: "/dev/zero", line: 1, column: 1, "", hint: ""))
        }
    }

    @Test("A directory or a missing file is a plain message naming the path")
    func notAFile() throws {
        let directory = try temporaryFeed(Array("buy com.example.pro".utf8)).deletingLastPathComponent()
        let error = feedError { () throws(FeedError) in try FeedRun.run(contentsOf: directory, file: directory.path) }
        #expect(error?.code == .unreadable)
        #expect(
            error?.description.hasPrefix("\(directory.path): error: \(directory.path) is a directory, not a feed")
                == true, "\(String(describing: error))")
        #expect(error?.description.contains("NSCocoaErrorDomain") == false)

        let missing = directory.appendingPathComponent("nowhere.feed")
        let absent = feedError { () throws(FeedError) in try FeedRun.run(contentsOf: missing) }
        #expect(absent?.code == .unreadable)
        #expect(
            absent?.description.hasPrefix("\(missing.path): error: there is no file at \(missing.path)") == true,
            "\(String(describing: absent))")
        #expect(absent?.description.contains("error 2") == false)
    }

    @Test("A config step naming a directory or a device is refused before anything runs")
    func configNotAFile() throws {
        let directory = try temporaryFeed(Array("buy com.example.pro".utf8)).deletingLastPathComponent()
        var sources = [directory.path]
        if FileManager.default.fileExists(atPath: "/dev/zero") { sources.append("/dev/zero") }
        for source in sources {
            let log = MemoryEventLog()
            let error = feedError { () throws(FeedError) in
                try FeedRun.run("buy com.example.pro\nconfig \(source)", file: "c.feed", log: log)
            }
            #expect(error == FeedError(.badConfiguration, file: "c.feed", line: 2, column: 8, "", hint: ""))
            #expect(error?.message.contains(source) == true, "\(String(describing: error))")
            #expect(log.lines.isEmpty)
        }
    }

    @Test(
        "An unknown product is refused before anything runs, with the catalog's closest names",
        arguments: [
            ("buy com.example.prp as t", 5, "com.example.pro"),
            ("expect owned com.example.coins10", 14, "com.example.coins100"),
            ("buy com.example.pro\napprove com.example.pri", 9, "com.example.pro"),
            ("next com.example.seson fails unknown", 6, "com.example.season"),
            ("expect renewals com.example.premium.monthy 0", 17, "com.example.premium.monthly"),
            ("buy-elsewhere com.exampel.pro", 15, "com.example.pro"),
            ("expire com.example.premium.montly", 8, "com.example.premium.monthly"),
        ]
    )
    func unknownProduct(text: String, column: Int, suggestion: String) throws {
        let log = MemoryEventLog()
        let error = feedError { () throws(FeedError) in try FeedRun.run(text, file: "typo.feed", log: log) }
        let line = text.split(separator: "\n").count
        #expect(
            error == FeedError(.unknownProduct, file: "typo.feed", line: line, column: column, "", hint: ""),
            "\(String(describing: error))")
        #expect(error?.message.contains("in the catalog (demo)") == true)
        #expect(error?.hint.hasPrefix("did you mean \(suggestion)") == true, "\(String(describing: error))")
        #expect(log.lines.isEmpty)
    }

    @Test("A product far from every name gets the catalog's list instead")
    func unknownProductList() throws {
        let error = feedError { () throws(FeedError) in try FeedRun.run("buy org.nothing.alike", file: "f") }
        #expect(error?.code == .unknownProduct)
        #expect(error?.hint.hasPrefix("the catalog has com.example.") == true, "\(String(describing: error))")
    }
}

@Suite("Bounds on feed values")
struct FeedBoundsTests {
    @Test(
        "Durations longer than 100 years, huge, negative or overflowing numbers are refused at parse time",
        arguments: [
            ("advance 999999999999999d", FeedError.Code.outOfBounds, 9),
            ("advance 99999999999999999999999s", .outOfBounds, 9),
            ("advance 9223372036854775807mo 1mo", .outOfBounds, 9),
            ("advance 9223372036854775807y 9223372036854775807y", .outOfBounds, 9),
            ("advance 36526d", .outOfBounds, 9),
            ("advance 100y 1s", .outOfBounds, 14),
            ("advance 1201 months", .outOfBounds, 9),
            ("advance 5000000 w", .outOfBounds, 9),
            ("advance -3 d", .invalidValue, 9),
            ("advance -3d", .invalidValue, 9),
            ("advance 3d -1h", .invalidValue, 12),
            ("expect unfinished -1", .outOfBounds, 19),
            ("expect history -5", .outOfBounds, 16),
            ("expect subscribed com.example.pro until 1969-12-31", .outOfBounds, 41),
            ("expect subscribed com.example.pro until 0000-01-01T00:00:00Z", .outOfBounds, 41),
        ]
    )
    func refused(text: String, code: FeedError.Code, column: Int) {
        let log = MemoryEventLog()
        let error = feedError { () throws(FeedError) in
            try FeedRun.run("buy com.example.pro\n" + text, file: "big.feed", log: log)
        }
        #expect(
            error == FeedError(code, file: "big.feed", line: 2, column: column, "", hint: ""),
            "\(String(describing: error))")
        #expect(error?.description.hasPrefix("big.feed:2:\(column): error: ") == true)
        #expect(log.lines.isEmpty)
    }

    @Test("The longest durations allowed run", arguments: ["100y", "36525d", "1200mo", "50y 600mo", "5217w 5d"])
    func longest(duration: String) throws {
        let result = try FeedRun.run("advance \(duration)", file: "f")
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    @Test("The clock stops at 9999-12-31: the advance that would pass it fails with its line")
    func latestDate() throws {
        let text = Array(repeating: "advance 100y", count: 80).joined(separator: "\n")
        let log = MemoryEventLog()
        let result = try FeedRun.run(text, file: "f", log: log)
        #expect(result.failure?.line == 80, "\(result.failure?.description ?? "passed")")
        #expect(result.failure?.message.contains("9999-12-31T23:59:59Z") == true)
        #expect(log.lines.last?.contains("\"event\":\"failed-feed\"") == true)
    }

    @Test("Dates far outside the calendar are formatted without trapping")
    func formatting() {
        #expect(ISO8601.format(Date(timeIntervalSince1970: 8.64e19)).hasSuffix("Z"))
        #expect(ISO8601.format(Date(timeIntervalSince1970: -8.64e19)).hasSuffix("Z"))
        #expect(ISO8601.format(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00Z")
        #expect(ISO8601.format(ISO8601.latest) == "9999-12-31T23:59:59Z")
    }

    @Test("A store error during a step fails the run at that step's line, in the verdict and the log")
    func storeError() throws {
        let log = MemoryEventLog()
        let result = try FeedRun.run(
            "buy com.example.pro as pro\n\nexpire com.example.pro\nexpect owned com.example.pro", file: "f", log: log)
        #expect(result.failure?.line == 3)
        #expect(result.failure?.message.isEmpty == false)
        #expect(log.lines.contains { $0.contains("\"event\":\"failed\",\"line\":3,") })
    }
}
