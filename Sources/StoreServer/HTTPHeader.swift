#if Server
    /// A header of a response.
    package struct HTTPHeader: Sendable, Hashable {
        /// The name.
        package var name: String
        /// The value.
        package var value: String

        /// Creates a header.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
#endif
