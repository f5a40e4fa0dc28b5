/// A read-only view of the database inside ``LedgerDatabase/read(_:)``: a ``LedgerTransaction`` that only reads.
///
/// All reads in one body see one consistent snapshot. The value is non-copyable and only borrowed by the body, so it
/// cannot outlive the transaction; pass it on as `borrowing LedgerReadTransaction`.
public typealias LedgerReadTransaction = LedgerTransaction<LedgerReadOnly>
