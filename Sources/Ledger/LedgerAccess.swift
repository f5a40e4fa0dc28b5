/// What a ``LedgerTransaction`` may do: ``LedgerReadOnly`` or ``LedgerReadWrite``. Only those two conform.
public protocol LedgerAccess {}

/// The access of a ``LedgerReadTransaction``: reading.
public enum LedgerReadOnly: LedgerAccess {}

/// The access of a ``LedgerWriteTransaction``: reading and writing.
public enum LedgerReadWrite: LedgerAccess {}
