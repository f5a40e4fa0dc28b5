// Tests for StoreSimulator live in this folder.
