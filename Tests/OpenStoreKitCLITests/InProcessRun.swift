import OpenStoreKitCLI
import Synchronization

/// Runs the command in this process, as the executable would run it, capturing what it writes to standard output and
/// standard error.
func runInProcess(_ arguments: [String], terminal: Bool = false) -> (code: Int32, out: String, err: String) {
    let out = Mutex("")
    let err = Mutex("")
    let tool = CommandLineTool(
        output: .init(
            out: { text in out.withLock { $0 += text } },
            err: { text in err.withLock { $0 += text } },
            isTerminal: terminal
        )
    )
    let code = tool.run(arguments)
    return (code, out.withLock { $0 }, err.withLock { $0 })
}
