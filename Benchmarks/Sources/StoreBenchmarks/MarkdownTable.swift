import Foundation

/// The summary printed at the end of a run: one row per benchmark, one indented row per further figure.
enum MarkdownTable {
    /// The table as markdown text.
    static func render(_ reports: [BenchmarkReport], machine: MachineInfo, quick: Bool) -> String {
        var lines: [String] = []
        if machine.build != "release" {
            lines.append("**DEBUG BUILD: these figures mean nothing. Run with `-c release`.**")
            lines.append("")
        }
        if quick {
            lines.append("**--quick smoke run: tiny sizes, one sample; these figures mean nothing.**")
            lines.append("")
        }
        lines.append(
            "Machine: \(machine.cpu), \(machine.cores) cores, \(machine.system); \(machine.date), \(machine.build).")
        lines.append("")
        lines.append("| benchmark | unit | median | min – max | baseline | baseline median | ratio | target |")
        lines.append("|---|---|---:|---:|---|---:|---:|---|")
        for report in reports {
            let perItem = report.unit.hasSuffix("/s") ? " (\(Format.nanoseconds(perItemAt: report.median)))" : ""
            let target = report.target.map { "≥ \(Format.ratio($0)) " + (report.ratio >= $0 ? "met" : "**missed**") }
            lines.append(
                row(
                    "`\(report.name)`",
                    report.unit,
                    Format.number(report.median) + perItem,
                    "\(Format.number(report.min)) – \(Format.number(report.max))",
                    report.baseline,
                    Format.number(report.baselineMedian)
                        + (report.unit.hasSuffix("/s")
                            ? " (\(Format.nanoseconds(perItemAt: report.baselineMedian)))" : ""),
                    "**\(Format.ratio(report.ratio))**",
                    target ?? ""
                )
            )
            for figure in report.figures {
                let perItem = figure.unit.hasSuffix("/s") ? " (\(Format.nanoseconds(perItemAt: figure.median)))" : ""
                let ratio: String
                switch (figure.role, figure.ratio) {
                case ("baseline", let value?): ratio = "\(Format.ratio(value)) (headline / this)"
                case (_, let value?): ratio = "\(Format.ratio(value)) (this / baseline)"
                default: ratio = ""
                }
                lines.append(
                    row(
                        "↳ \(figure.name)" + (figure.role == "baseline" ? " *(baseline)*" : ""),
                        figure.unit,
                        Format.number(figure.median) + perItem,
                        figure.min == figure.max
                            ? "" : "\(Format.number(figure.min)) – \(Format.number(figure.max))",
                        "",
                        "",
                        ratio,
                        ""
                    )
                )
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func row(_ cells: String...) -> String {
        "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
    }
}
