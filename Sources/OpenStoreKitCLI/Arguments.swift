/// Options and operands of one command, parsed against the options it accepts.
struct Arguments {
    private(set) var values: [String: String] = [:]
    private(set) var flags = Set<String>()
    private(set) var repeated: [String: [String]] = [:]
    private(set) var operands: [String] = []
    /// Whether `-h` or `--help` was given: the command prints its usage and does nothing else.
    private(set) var wantsHelp = false

    /// Parses `arguments`; `valued` options take a value (`--log FILE` or `--log=FILE`), `flags` do not, `multi` may
    /// repeat; the others may be given once. `-h` and `--help` stop the parse and set ``wantsHelp``.
    init(
        _ arguments: [String],
        command: String,
        valued: Set<String> = [],
        flags allowedFlags: Set<String> = [],
        multi: Set<String> = []
    ) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-"), argument != "-" else {
                operands.append(argument)
                continue
            }
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            if name == "-h" || name == "--help" {
                wantsHelp = true
                return
            }
            if allowedFlags.contains(name) {
                guard inline == nil else { throw UsageError("\(name) takes no value") }
                guard !flags.contains(name) else { throw UsageError("\(name) is given twice; give it once") }
                flags.insert(name)
            } else if valued.contains(name) || multi.contains(name) {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                if multi.contains(name) {
                    repeated[name, default: []].append(value)
                } else {
                    if let first = values[name] {
                        throw UsageError(
                            "\(name) is given twice (\"\(first)\" and \"\(value)\"); give it once")
                    }
                    values[name] = value
                }
            } else {
                let known = (valued.union(allowedFlags).union(multi)).sorted().joined(separator: ", ")
                throw UsageError(
                    "unknown option \(name) for `\(command)`" + (known.isEmpty ? "" : "; its options are \(known)")
                )
            }
        }
    }

    func integer(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return value
    }
}
