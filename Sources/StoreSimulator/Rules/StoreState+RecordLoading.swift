import StoreModels

extension StoreState {
    /// Loads an account's records from the state file, if the store reads them on demand and has not yet, and those of
    /// every member of its family with them (Family Sharing's rules read across members): the questions about the
    /// account that follow then read memory. Writes load what they write by themselves (``RecordTable``); this spares
    /// reads of the file for the questions of an account asked again and again.
    mutating func loadRecords(of account: String) {
        guard !records.isComplete else { return }
        records.load(account)
        for member in familyMembers(of: account) { records.load(member) }
    }

    /// Loads the records of the account holding the record `id`, with its family (``loadRecords(of:)``).
    mutating func loadRecords(holding id: UInt64) {
        guard !records.isComplete, let account = records[id]?.account else { return }
        loadRecords(of: account)
    }
}
