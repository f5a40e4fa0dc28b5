#if Server
    extension StoreServer {
        /// Checks the notification history that a server over a store kept in `statePath` reads when it starts (the
        /// file `statePath.notifications`), without changing it: call it before creating the state file, so that a
        /// refused history leaves no new file behind.
        ///
        /// - Parameter statePath: The path of the store's state file.
        /// - Throws: ``StoreServerError/Code/notificationStateFailed`` naming the file and line, as ``init(store:configuration:)``
        ///   would.
        public static func checkNotificationHistory(statePath: String) throws(StoreServerError) {
            _ = try NotificationHistoryFile.read(path: statePath + ".notifications")
        }
    }
#endif
