import FeedRunner
import Foundation

extension CommandLineTool {
    func generate(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(arguments, command: "generate", valued: Help.options["generate"] ?? [])
        if printsHelp(options, for: "generate") { return 0 }
        guard options.operands.isEmpty else {
            throw UsageError("generate takes no operands; write the feed to a file with --output FILE")
        }
        guard options.values["--users"] != nil else { throw UsageError("generate needs --users N") }
        guard let seedText = options.values["--seed"] else { throw UsageError("generate needs --seed S") }
        guard let seed = UInt64(seedText) else { throw UsageError("--seed takes a whole number, not \"\(seedText)\"") }
        let users = try options.integer("--users", default: 1, range: 1...1_000_000)
        let steps = try options.integer("--steps", default: users * 20, range: 1...100_000_000)
        let generator = FeedGenerator(users: users, steps: steps, seed: seed)
        let destination = try OutputFile(options.values["--output"] ?? "-", option: "--output", what: "the feed")
        let writer = try destination.open(standardOutput: standardOutputData)
        let feed = OutputEventLog(writer: writer)
        generator.write { feed.append($0) }
        feed.flush()
        try writer.commit()
        return 0
    }
}
