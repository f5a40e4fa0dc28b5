#if Server
    /// How a ``StoreServer`` delivers Server Notifications V2 (`serve --delivery`).
    public enum NotificationDelivery: String, Sendable, Hashable, CaseIterable {
        /// As Apple's production environment: a failed notification is tried again 1, 12, 24, 48 and 72 hours after
        /// the previous attempt, on the store's clock (six attempts in all).
        case production
        /// As Apple's sandbox: each notification is attempted once, with no retry.
        case sandbox

        /// The hours between a failed attempt and the next one: one entry per retry.
        var retryHours: [Int64] {
            switch self {
            case .production: return NotificationSender.retryHours
            case .sandbox: return []
            }
        }
    }
#endif
