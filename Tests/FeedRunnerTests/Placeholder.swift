// Tests for FeedRunner live in this folder.
