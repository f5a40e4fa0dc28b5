// Tests for Purchases live in this folder.
