#if Server
    import Foundation
    import ReceiptKit
    import StoreModels
    import StoreSimulator

    extension AppStoreServerAPI {
        /// The JSON of Get Transaction History.
        private struct HistoryResponse: Encodable {
            let revision: String
            let hasMore: Bool
            let bundleId: String
            let environment: String
            let signedTransactions: [String]
        }

        /// The JSON of Get Refund History.
        private struct RefundHistoryResponse: Encodable {
            let signedTransactions: [String]
            let revision: String
            let hasMore: Bool
        }

        /// Get Transaction History (v2, every transaction; v1, which leaves out finished consumables that were not
        /// refunded).
        func history(_ text: String, query: [String: [String]], version: String) throws(APIError) -> HTTPResponse {
            let customer = try customer(of: text, including: .history)
            var records = customer.transactionHistory(view: version == "v1" ? .serverVersion1 : .serverVersion2)
            if let start = query["startDate"] {
                guard start.count == 1, let ms = APIRequest.milliseconds(start[0]) else { throw .invalidStartDate }
                records = records.filter { JWSDate($0.purchaseDate).millisecondsSince1970 >= ms }
            }
            if let end = query["endDate"] {
                guard end.count == 1, let ms = APIRequest.milliseconds(end[0]) else { throw .invalidEndDate }
                records = records.filter { JWSDate($0.purchaseDate).millisecondsSince1970 < ms }
            }
            if let products = query["productId"] {
                guard products.allSatisfy({ !$0.isEmpty }) else { throw .invalidProductId }
                records = records.filter { products.contains($0.productID) }
            }
            if let types = query["productType"] {
                let map: [String: ProductType] = [
                    "AUTO_RENEWABLE": .autoRenewableSubscription, "NON_RENEWABLE": .nonRenewingSubscription,
                    "CONSUMABLE": .consumable, "NON_CONSUMABLE": .nonConsumable,
                ]
                var wanted = Set<ProductType>()
                for type in types {
                    guard let productType = map[type] else { throw .invalidProductType }
                    wanted.insert(productType)
                }
                records = records.filter { wanted.contains($0.productType) }
            }
            if let groups = query["subscriptionGroupIdentifier"] {
                guard groups.allSatisfy({ !$0.isEmpty }) else { throw .invalidSubscriptionGroupIdentifier }
                let catalog = customer.payloadMapping.catalog
                records = records.filter {
                    (catalog.product($0.productID)?.subscription?.groupID).map(groups.contains) ?? false
                }
            }
            if let ownership = query["inAppOwnershipType"] {
                guard ownership.count == 1, ["PURCHASED", "FAMILY_SHARED"].contains(ownership[0]) else {
                    throw .invalidInAppOwnershipType
                }
                let shared = ownership[0] == "FAMILY_SHARED"
                records = records.filter { $0.isFamilyShared == shared }
            }
            if let revoked = query["revoked"] {
                guard revoked.count == 1, let flag = Bool(revoked[0].lowercased()) else { throw .invalidRevoked }
                records = records.filter { ($0.cancellationDate != nil) == flag }
            }
            if let exclude = query["excludeRevoked"] {
                guard exclude.count == 1, let flag = Bool(exclude[0].lowercased()) else { throw .invalidExcludeRevoked }
                if flag { records = records.filter { $0.cancellationDate == nil } }
            }
            var descending = false
            if let sort = query["sort"] {
                guard sort.count == 1, ["ASCENDING", "DESCENDING"].contains(sort[0]) else { throw .invalidSort }
                descending = sort[0] == "DESCENDING"
            }
            let keyed = records.map {
                (key: PageKey(modified: $0.cancellationDate ?? $0.purchaseDate, id: $0.id), record: $0)
            }
            .sorted { descending ? $1.key < $0.key : $0.key < $1.key }
            let page = try Self.page(keyed, after: query["revision"]?.first, descending: descending)
            return APIRequest.json(
                HistoryResponse(
                    revision: page.revision, hasMore: page.hasMore, bundleId: bundleID,
                    environment: environment.rawValue,
                    signedTransactions: try page.items.map { (record) throws(APIError) in
                        try signed.transaction(record, in: customer)
                    }))
        }

        /// Get Refund History (v2): the customer's refunded transactions (``refunds(of:)``), by refund date.
        func refundHistory(_ text: String, query: [String: [String]]) throws(APIError) -> HTTPResponse {
            let customer = try customer(of: text, including: .history)
            let keyed = Self.refunds(of: customer).compactMap { record in
                record.cancellationDate.map { (key: PageKey(modified: $0, id: record.id), record: record) }
            }
            let page = try Self.page(keyed, after: query["revision"]?.first, descending: false)
            return APIRequest.json(
                RefundHistoryResponse(
                    signedTransactions: try page.items.map { (record) throws(APIError) in
                        try signed.transaction(record, in: customer)
                    },
                    revision: page.revision, hasMore: page.hasMore))
        }

        /// One page of sorted items after a revision (the key of the last item of the previous page).
        private static func page(
            _ keyed: [(key: PageKey, record: TransactionRecord)], after revision: String?, descending: Bool
        ) throws(APIError) -> (items: [TransactionRecord], revision: String, hasMore: Bool) {
            var rest = keyed[...]
            if let revision {
                guard let last = PageKey(revision: revision) else { throw .invalidRequestRevision }
                rest = keyed.drop { descending ? !($0.key < last) : !(last < $0.key) }
            }
            let items = rest.prefix(pageSize)
            let revision = items.last?.key.revision ?? revision ?? PageKey.start.revision
            return (items.map(\.record), revision, rest.count > items.count)
        }
    }

    /// Where a page ends: a modification date and a transaction id, written `MILLISECONDS_ID` in a revision.
    struct PageKey: Comparable, Sendable {
        let milliseconds: Int64
        let id: UInt64

        static let start = PageKey(milliseconds: 0, id: 0)

        init(milliseconds: Int64, id: UInt64) {
            self.milliseconds = milliseconds
            self.id = id
        }

        init(modified: Date, id: UInt64) {
            self.init(milliseconds: JWSDate(modified).millisecondsSince1970, id: id)
        }

        init?(revision: String) {
            let parts = revision.split(separator: "_", omittingEmptySubsequences: false)
            guard parts.count == 2, let ms = APIRequest.milliseconds(String(parts[0])),
                let id = APIRequest.transactionID(String(parts[1])) ?? (parts[1] == "0" ? 0 : nil)
            else { return nil }
            self.init(milliseconds: ms, id: id)
        }

        var revision: String { "\(milliseconds)_\(id)" }

        static func < (lhs: PageKey, rhs: PageKey) -> Bool {
            (lhs.milliseconds, lhs.id) < (rhs.milliseconds, rhs.id)
        }
    }
#endif
