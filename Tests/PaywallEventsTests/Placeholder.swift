// Tests for PaywallEvents live in this folder.
