// Tests for StoreModels live in this folder.
