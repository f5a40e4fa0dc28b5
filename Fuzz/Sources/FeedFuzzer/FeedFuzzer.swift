import FeedRunner
import Foundation

/// An empty directory for the `config` paths of the inputs, so that relative paths name no file.
let configDirectory: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("feed-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// One input: the feed reader (UTF-8 and control characters), the parser and the checker (handles, products against
/// the demo catalog, bounds), and, for short feeds that pass the checks, a run on a fresh store. Properties that must
/// hold are checked with `precondition`, so a violation is reported as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let parser = FeedParser(file: "fuzz.feed", baseDirectory: configDirectory)
    do throws(FeedError) {
        let text = try FeedText.decode(bytes, file: "fuzz.feed")
        let steps = try parser.validate(text)
        var seen = 0
        try parser.forEachStep(in: text) { (line: FeedLine) throws(FeedError) in
            seen += 1
            // A step's own text, alone, parses to the same step.
            var again: [FeedStep] = []
            try parser.forEachStep(in: line.text) { again.append($0.step) }
            precondition(again == [line.step], "a step's text must parse to the same step")
        }
        precondition(seen == steps, "validate and forEachStep must agree on the steps")
        if steps <= 12 {
            let result = try FeedRun.run(text, file: "fuzz.feed", baseDirectory: configDirectory)
            precondition(result.steps <= steps)
            if let failure = result.failure { precondition(failure.line >= 1 && !failure.message.isEmpty) }
        }
    } catch {
        precondition(error.file == "fuzz.feed", "errors name the file")
        precondition(error.line >= 1 && error.column >= 1, "errors name a line and a column: \(error)")
        precondition(!error.message.isEmpty && !error.hint.isEmpty, "errors explain themselves: \(error)")
    }
    return 0
}
