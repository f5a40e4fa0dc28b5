#if Server
    /// A control request the server cannot act on: its HTTP status (400 unless said) and what to do.
    struct ControlError: Error {
        let message: String
        let status: Int

        init(_ message: String, status: Int = 400) {
            self.message = message
            self.status = status
        }
    }
#endif
