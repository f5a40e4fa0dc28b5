#if Server
    /// A header of a response.
    struct HTTPHeader: Sendable, Hashable {
        /// The name.
        var name: String
        /// The value.
        var value: String
    }
#endif
