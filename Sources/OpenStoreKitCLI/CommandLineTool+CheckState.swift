import StoreSimulator

extension CommandLineTool {
    /// `openstorekit check-state FILE`: the whole-file check of a state file (`SimulatedStore.checkStateFile(atPath:)`),
    /// which opening a store no longer makes by default; nothing is written to the file.
    func checkState(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(arguments, command: "check-state")
        if printsHelp(options, for: "check-state") { return 0 }
        guard options.operands.count == 1, let path = options.operands.first else {
            throw UsageError("check-state takes one state file, got \(options.operands.count)")
        }
        try InputFile.mustExist(path)
        do {
            try SimulatedStore.checkStateFile(atPath: path)
        } catch {
            output.err("openstorekit: \(error.detail)\n")
            return 1
        }
        output.err("\(path): ok\n")
        return 0
    }
}
