import Foundation

/// Number formatting for the summary table and the chart.
enum Format {
    /// Three significant digits with a k/M/G suffix: `1.23 M`, `45.7 k`, `812`, `0.251`.
    static func number(_ value: Double) -> String {
        let magnitude = abs(value)
        let (scaled, suffix): (Double, String) =
            switch magnitude {
            case 1e9...: (value / 1e9, " G")
            case 1e6...: (value / 1e6, " M")
            case 1e4...: (value / 1e3, " k")
            default: (value, "")
            }
        return significant(scaled) + suffix
    }

    /// Three significant digits, no suffix.
    static func significant(_ value: Double) -> String {
        let magnitude = abs(value)
        let decimals =
            switch magnitude {
            case 100...: 0
            case 10...: 1
            case 1...: 2
            default: 3
            }
        return String(format: "%.\(decimals)f", value)
    }

    /// A ratio with two decimals, or three below 0.1.
    static func ratio(_ value: Double) -> String {
        String(format: abs(value) < 0.1 ? "%.3f" : "%.2f", value)
    }

    /// Nanoseconds per item for a rate in items per second.
    static func nanoseconds(perItemAt rate: Double) -> String {
        rate > 0 ? significant(1e9 / rate) + " ns" : "-"
    }
}
