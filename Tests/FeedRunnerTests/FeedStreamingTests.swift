import FeedRunner
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Feed files are read line by line")
struct FeedStreamingTests {
    @Test("A line longer than the limit is refused where it starts, naming the file, the line and the limit")
    func longLine() throws {
        let limit = FeedParser.maximumLineLength
        for length in [limit + 1, 3 * limit, 1 << 20] {
            let bytes =
                Array("buy com.example.pro as pro\n".utf8) + Array("# ".utf8)
                + [UInt8](repeating: UInt8(ascii: "a"), count: length - 2) + Array("\nexpect removed pro\n".utf8)
            let url = try temporaryFeed(bytes)
            let log = MemoryEventLog()
            let error = feedError { () throws(FeedError) in
                try FeedRun.run(contentsOf: url, file: "long.feed", log: log)
            }
            #expect(error == FeedError(.outOfBounds, file: "long.feed", line: 2, column: 1, "", hint: ""))
            #expect(
                error?.description.hasPrefix(
                    "long.feed:2:1: error: the line holds more than \(limit) bytes; a line holds at most \(limit)")
                    == true, "\(String(describing: error))")
            #expect(log.lines.isEmpty)
        }
        let longest = try temporaryFeed(
            Array("# ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: limit - 2)
                + Array("\r\nbuy com.example.pro as pro".utf8))
        #expect(try FeedRun.run(contentsOf: longest).steps == 1)
    }

    @Test("Line ends split between two reads of the buffer are one line end: line numbers stay right")
    func lineEndsAcrossReads() throws {
        // Comment lines that put a CR as the last byte of the first 64 KiB read and its LF as the first of the next.
        var bytes = Array("buy com.example.pro as pro\r\n".utf8)
        let filler = 65_536 - bytes.count - 1
        bytes += Array("#".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: filler - 2) + [0x0D]
        #expect(bytes.count == 65_535)
        bytes += [0x0D, 0x0A] + Array("expect state pro purchased\rexpect sunshine\n".utf8)
        let url = try temporaryFeed(bytes)
        let error = feedError { () throws(FeedError) in try FeedRun.run(contentsOf: url, file: "split.feed") }
        #expect(error == FeedError(.invalidValue, file: "split.feed", line: 5, column: 8, "", hint: ""))
    }

    @Test(
        "A binary byte past a long line's limit is still reported as not text, and a UTF-8 sequence cut by the limit is not"
    )
    func binaryLongLine() throws {
        let limit = FeedParser.maximumLineLength
        let binary = try temporaryFeed(Array("buy com.".utf8) + [0x01] + [UInt8](repeating: 0x41, count: limit * 2))
        let error = feedError { () throws(FeedError) in try FeedRun.run(contentsOf: binary, file: "b.feed") }
        #expect(error == FeedError(.notText, file: "b.feed", line: 1, column: 9, "", hint: ""))
        // "é" is two bytes; the limit falls between them.
        let accents = try temporaryFeed(
            Array("#".utf8) + Array(repeating: Array("\u{E9}".utf8), count: limit).flatMap { $0 })
        let long = feedError { () throws(FeedError) in try FeedRun.run(contentsOf: accents, file: "e.feed") }
        #expect(long == FeedError(.outOfBounds, file: "e.feed", line: 1, column: 1, "", hint: ""))
    }

    @Test("A feed file changed between its check and its run is refused, not run half old, half new")
    func changedFile() throws {
        let url = try temporaryFeed(Array("buy com.example.pro as pro\n".utf8))
        let feed = try FeedFile(contentsOf: url, file: "changing.feed")
        var lines: [Int] = []
        try feed.forEachLine { (number, _) throws(FeedError) in lines.append(number) }
        #expect(lines == [1])
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("expect removed pro\n".utf8))
        try handle.close()
        do throws(FeedError) {
            try feed.forEachLine { (_, _) throws(FeedError) in }
            Issue.record("the changed feed was read")
        } catch {
            #expect(error.code == .unreadable)
            #expect(error.file == "changing.feed")
            #expect(error.message.contains("changed while it was read"), "\(error)")
        }
    }

    @Test("A feed from a pipe is read once, copied aside, checked and run")
    func pipe() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feed-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("feed.fifo")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let text = "buy com.example.pro as pro\r\nexpect states pro purchasing purchased\nexpect removed pro\n"
        let writer = Thread {
            // Opening a FIFO for writing waits for its reader.
            guard let handle = FileHandle(forWritingAtPath: fifo.path) else { return }
            try? handle.write(contentsOf: Data(text.utf8))
            try? handle.close()
        }
        writer.start()
        let result = try FeedRun.run(contentsOf: fifo, file: "pipe.feed")
        #expect(result.passed, "\(result.failure?.description ?? "")")
        #expect(result.steps == 3)
    }
}
