import StoreModels

extension FeedParser {
    /// `refund REF [prorated PERCENT%]`: a full refund, or a prorated one of the share given, a percentage with up to
    /// three decimals (`50%`, `33.333%`), kept in thousandths of a percent (Apple's `revocationPercentage`).
    func refund(_ reader: inout TokenReader) throws(FeedError) -> FeedStep {
        let reference = try reader.reference()
        guard reader.peek != nil else { return .refund(reference, percentage: nil) }
        let keyword = try reader.word("prorated")
        guard keyword == "prorated" else {
            throw reader.error(
                .wrongArguments, at: reader.lastColumn, "unexpected \"\(keyword)\"",
                hint: "write `refund REF` for a full refund or `refund REF prorated 50%` for a prorated one")
        }
        let value = try reader.word("the share refunded, such as 50%")
        guard let percentage = Self.milliPercent(value),
            TransactionRecord.revocationPercentageRange.contains(percentage)
        else {
            throw reader.error(
                .invalidValue, at: reader.lastColumn,
                "\"\(value)\" is not a share from 0.001% to 100% with at most three decimals",
                hint: "write a percentage such as 50% or 33.333%")
        }
        return .refund(reference, percentage: percentage)
    }

    /// A percentage written `N%` or `N.NNN%` in thousandths of a percent (`50%` is 50000), or nil.
    static func milliPercent(_ text: String) -> Int? {
        guard text.hasSuffix("%") else { return nil }
        let parts = text.dropLast().split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty, whole.count <= 3,
            whole.allSatisfy({ $0.isASCII && $0.isNumber }), let units = Int(whole)
        else { return nil }
        var thousandths = 0
        if parts.count == 2 {
            let decimals = parts[1]
            guard (1...3).contains(decimals.count), decimals.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(decimals + String(repeating: "0", count: 3 - decimals.count))
            else { return nil }
            thousandths = value
        }
        return units * 1000 + thousandths
    }
}
