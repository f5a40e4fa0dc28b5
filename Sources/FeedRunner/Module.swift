// Module FeedRunner: see README.md for its place in the package.
