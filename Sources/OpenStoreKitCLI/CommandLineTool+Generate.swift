import FeedRunner
import Foundation

extension CommandLineTool {
    func generate(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(
            arguments, command: "generate", valued: ["--users", "--seed", "--steps", "--output"])
        guard options.operands.isEmpty else { throw UsageError("generate takes no operands") }
        guard options.values["--users"] != nil else { throw UsageError("generate needs --users N") }
        guard let seedText = options.values["--seed"] else { throw UsageError("generate needs --seed S") }
        guard let seed = UInt64(seedText) else { throw UsageError("--seed takes a whole number, not \"\(seedText)\"") }
        let users = try options.integer("--users", default: 1, range: 1...1_000_000)
        let steps = try options.integer("--steps", default: users * 20, range: 1...100_000_000)
        let generator = FeedGenerator(users: users, steps: steps, seed: seed)
        if let path = options.values["--output"] {
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else { throw UsageError("cannot write the feed to \(path)") }
            let log = FileEventLog(handle: handle)
            generator.write { log.append($0) }
            log.flush()
            try? handle.close()
        } else {
            var buffer = ""
            generator.write { line in
                buffer += line + "\n"
                if buffer.utf8.count > 1 << 16 {
                    output.out(buffer)
                    buffer = ""
                }
            }
            output.out(buffer)
        }
        return 0
    }
}
