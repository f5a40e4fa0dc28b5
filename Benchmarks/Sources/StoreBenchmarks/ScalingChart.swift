import Foundation

/// The `queue.scaling` chart as hand-written SVG: cost per transaction (left axis, with the baseline's cost per item)
/// and peak resident memory (right axis) against the number of transactions (log axis).
struct ScalingChart {
    /// One size.
    struct Point {
        /// Transactions in the run.
        var size: Int
        /// Median nanoseconds per transaction through the queue.
        var nanoseconds: Double
        /// Median nanoseconds per item of the baseline at the same size.
        var baselineNanoseconds: Double
        /// Peak resident memory of the child process, MiB.
        var peakMiB: Double
    }

    /// The sizes, smallest first.
    var points: [Point]
    /// A line under the title: machine and date.
    var caption: String

    /// Reads the points out of a `queue.scaling` report.
    init?(report: BenchmarkReport, machine: MachineInfo) {
        guard let reportPoints = report.points, !reportPoints.isEmpty else { return nil }
        points = reportPoints.compactMap { point in
            guard let nanoseconds = point.values["nsPerTransaction"],
                let baseline = point.values["baselineNsPerItem"],
                let peak = point.values["peakRSSMiB"]
            else { return nil }
            return Point(size: point.size, nanoseconds: nanoseconds, baselineNanoseconds: baseline, peakMiB: peak)
        }
        .sorted { $0.size < $1.size }
        guard !points.isEmpty else { return nil }
        caption = "\(machine.cpu), \(machine.cores) cores · \(machine.date.prefix(10)) · \(machine.build) build"
    }

    // Geometry: two panels, one above the other, sharing the size axis.
    private let width = 760.0
    private let height = 560.0
    private let left = 84.0
    private let right = 716.0
    private let costPanel = (top: 118.0, bottom: 330.0)
    private let memoryPanel = (top: 372.0, bottom: 482.0)

    /// The SVG document.
    func render() -> String {
        let sizes = points.map { log10(Double($0.size)) }
        let lowDecade = (sizes.min() ?? 3).rounded(.down)
        let highDecade = max((sizes.max() ?? 7).rounded(.up), lowDecade + 1)
        // Half a decade of room on each side, so that points and their labels clear the axes.
        let lowEdge = lowDecade - 0.4
        let highEdge = highDecade + 0.4
        let costTop = Self.niceCeiling(points.map { max($0.nanoseconds, $0.baselineNanoseconds) }.max() ?? 1)
        let memoryTop = Self.niceCeiling(points.map(\.peakMiB).max() ?? 1)
        func x(_ size: Int) -> Double {
            left + (log10(Double(size)) - lowEdge) / (highEdge - lowEdge) * (right - left)
        }
        func yCost(_ value: Double) -> Double {
            costPanel.bottom - value / costTop * (costPanel.bottom - costPanel.top)
        }
        func yMemory(_ value: Double) -> Double {
            memoryPanel.bottom - value / memoryTop * (memoryPanel.bottom - memoryPanel.top)
        }

        let costColor = "#1f6feb"
        let baselineColor = "#6e7781"
        let memoryColor = "#d1670a"
        var svg: [String] = []
        svg.append(
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            """
        )
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>")
        svg.append(
            text(
                "queue.scaling: cost per transaction and peak memory against size",
                x: width / 2,
                y: 26,
                anchor: "middle",
                extra: "font-size=\"16\" font-weight=\"bold\""
            )
        )
        svg.append(text(caption, x: width / 2, y: 46, anchor: "middle", extra: "fill=\"#57606a\""))

        // Legend.
        let legend: [(String, String, String)] = [
            ("queue: ns per transaction, one purchase at a time (median)", costColor, ""),
            (
                "baseline: ns per item (Mutex + String-keyed dictionary, same process)", baselineColor,
                "stroke-dasharray=\"6 4\""
            ),
            ("peak resident memory (VmHWM) of a fresh process per size", memoryColor, ""),
        ]
        for (index, (label, color, dash)) in legend.enumerated() {
            let y = 66 + Double(index) * 15
            svg.append(line(left + 8, y, left + 30, y, stroke: color, extra: "stroke-width=\"2.5\" \(dash)"))
            svg.append(text(label, x: left + 36, y: y + 4, anchor: "start", extra: "font-size=\"11\""))
        }

        // Panels: horizontal grid, left axis labels, frame.
        for (panel, top, color, label, value) in [
            (costPanel, costTop, costColor, "ns per transaction", yCost),
            (memoryPanel, memoryTop, memoryColor, "peak RSS (MiB)", yMemory),
        ] as [((top: Double, bottom: Double), Double, String, String, (Double) -> Double)] {
            let ticks = panel == costPanel ? 5 : 2
            for tick in 0...ticks {
                let amount = top * Double(tick) / Double(ticks)
                let y = value(amount)
                svg.append(
                    line(left, y, right, y, stroke: "#d0d7de", extra: tick == 0 ? "" : "stroke-dasharray=\"2 3\""))
                svg.append(text(Self.tick(amount), x: left - 8, y: y + 4, anchor: "end", extra: "fill=\"\(color)\""))
            }
            svg.append(line(left, panel.top, left, panel.bottom, stroke: "#57606a"))
            let middle = (panel.top + panel.bottom) / 2
            svg.append(
                "<text x=\"24\" y=\"\(r(middle))\" text-anchor=\"middle\" fill=\"\(color)\" "
                    + "transform=\"rotate(-90 24 \(r(middle)))\">\(label)</text>"
            )
        }

        // Size axis: decade lines through both panels, labels under the lower one.
        for decade in Int(lowDecade)...Int(highDecade) {
            let xPosition = x(Int(pow(10, Double(decade))))
            for panel in [costPanel, memoryPanel] {
                svg.append(
                    line(
                        xPosition, panel.top, xPosition, panel.bottom, stroke: "#d0d7de",
                        extra: "stroke-dasharray=\"2 3\"")
                )
            }
            svg.append(
                text("10" + Self.superscript(decade), x: xPosition, y: memoryPanel.bottom + 18, anchor: "middle"))
        }
        svg.append(
            text(
                "transactions per run (log scale); each size in a fresh process",
                x: (left + right) / 2,
                y: memoryPanel.bottom + 42,
                anchor: "middle"
            )
        )

        // Series.
        let cost = points.map { (x($0.size), yCost($0.nanoseconds)) }
        let baseline = points.map { (x($0.size), yCost($0.baselineNanoseconds)) }
        let memory = points.map { (x($0.size), yMemory($0.peakMiB)) }
        svg.append(polyline(baseline, stroke: baselineColor, extra: "stroke-dasharray=\"6 4\""))
        svg.append(polyline(cost, stroke: costColor, extra: ""))
        svg.append(polyline(memory, stroke: memoryColor, extra: ""))
        for (point, (px, py)) in zip(points, baseline) {
            svg.append("<circle cx=\"\(r(px))\" cy=\"\(r(py))\" r=\"3\" fill=\"\(baselineColor)\"/>")
            svg.append(
                text(
                    Format.significant(point.baselineNanoseconds) + " ns",
                    x: px,
                    y: py - 8,
                    anchor: "middle",
                    extra: "fill=\"\(baselineColor)\" font-size=\"11\""
                )
            )
        }
        for (point, (px, py)) in zip(points, cost) {
            svg.append("<circle cx=\"\(r(px))\" cy=\"\(r(py))\" r=\"4\" fill=\"\(costColor)\"/>")
            svg.append(
                text(
                    Format.significant(point.nanoseconds) + " ns",
                    x: px,
                    y: py - 9,
                    anchor: "middle",
                    extra: "fill=\"\(costColor)\" font-size=\"11\" font-weight=\"bold\""
                )
            )
        }
        for (point, (px, py)) in zip(points, memory) {
            svg.append(
                "<rect x=\"\(r(px - 4))\" y=\"\(r(py - 4))\" width=\"8\" height=\"8\" fill=\"\(memoryColor)\"/>"
            )
            svg.append(
                text(
                    Format.significant(point.peakMiB) + " MiB",
                    x: px,
                    y: py - 9,
                    anchor: "middle",
                    extra: "fill=\"\(memoryColor)\" font-size=\"11\""
                )
            )
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// The smallest of 1, 2, 2.5, 5 × 10^k at or above `value` (with 10% headroom for labels).
    static func niceCeiling(_ value: Double) -> Double {
        let padded = max(value * 1.1, 1e-9)
        let power = pow(10, (log10(padded)).rounded(.down))
        for step in [1.0, 2, 2.5, 5, 10] where step * power >= padded { return step * power }
        return 10 * power
    }

    /// An axis label: whole numbers without decimals.
    static func tick(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : Format.significant(value)
    }

    /// A number in superscript digits, for powers of ten.
    static func superscript(_ number: Int) -> String {
        let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        return String(String(number).compactMap { $0.wholeNumberValue.map { digits[$0] } ?? "⁻" })
    }

    private func r(_ value: Double) -> String { String(format: "%.1f", value) }

    private func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, extra: String = "")
        -> String
    {
        "<line x1=\"\(r(x1))\" y1=\"\(r(y1))\" x2=\"\(r(x2))\" y2=\"\(r(y2))\" stroke=\"\(stroke)\" \(extra)/>"
    }

    private func polyline(_ points: [(Double, Double)], stroke: String, extra: String) -> String {
        let list = points.map { "\(r($0.0)),\(r($0.1))" }.joined(separator: " ")
        return "<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"2\" \(extra)/>"
    }

    private func text(_ content: String, x: Double, y: Double, anchor: String, extra: String = "") -> String {
        let escaped = content.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        return "<text x=\"\(r(x))\" y=\"\(r(y))\" text-anchor=\"\(anchor)\" \(extra)>\(escaped)</text>"
    }
}
