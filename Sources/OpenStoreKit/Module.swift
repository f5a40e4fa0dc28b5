// Module OpenStoreKit: see README.md for its place in the package.
