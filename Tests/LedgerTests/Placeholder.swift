// Tests for Ledger live in this folder.
