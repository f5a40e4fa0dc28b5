/// Usage texts of the `openstorekit` command.
enum Help {
    static let commands = ["demo", "run", "generate", "receipt", "help"]

    static let overview = """
        openstorekit: StoreKit's payment queue over a simulated App Store, driven by scripted feeds.

        Usage: openstorekit COMMAND [OPTIONS]

        Commands:
          demo        Run the built-in demo feed and print its event log.
          run         Run feed files and print a verdict for each.
          generate    Write a large random but reproducible feed.
          receipt     Verify or dump an App Store receipt (Apple's or the simulator's).
          help        Show help for a command: openstorekit help run

        Exit codes: 0 success, 1 an expectation failed, 2 a usage error or a malformed feed.
        The feed language: docs/feeds.md.

        """

    static func command(_ name: String) -> String? {
        switch name {
        case "demo":
            return """
                Usage: openstorekit demo [--log FILE] [--receipt-out FILE] [--state FILE]

                Runs the built-in demo feed (a purchase, a failure, an Ask to Buy approval and a restore) on the
                built-in catalog and prints its event log, one JSON object per line, then the verdict.

                Options:
                  --log FILE          Write the event log to FILE instead of standard output.
                  --receipt-out FILE  Write the app receipt (DER) as it stands at the end of the demo, signed by the
                                      test PKI in Receipts/ (check it with `openstorekit receipt verify FILE
                                      --test-root` or `openssl cms -verify`).
                  --state FILE        Run the demo on the store kept in the state file FILE (see `openstorekit help
                                      run`). The demo expects a new file: on one left by an earlier run its
                                      expectations about a fresh store fail.

                """
        case "run":
            return """
                Usage: openstorekit run FEED... [--log FILE | --log-dir DIR] [--junit FILE] [--state PATH]

                Runs each feed on its own store, independent feeds in parallel over the machine's cores, and prints
                PASS or FAIL per feed (with the first failed expectation and its line), then `N passed, M failed`.

                Options:
                  --log FILE      Write the event logs of all feeds, in the order given, to FILE.
                  --log-dir DIR   Write each feed's event log to DIR/<feed name>.jsonl.
                  --junit FILE    Write a JUnit XML report to FILE.
                  --jobs N        Run at most N feeds at once (default: the number of cores).
                  --state PATH    Keep each feed's store in an SQLite state file instead of memory. With one feed,
                                  PATH is the file; with several (or when PATH is a directory), each feed gets
                                  PATH/<feed name>.sqlite. A new file starts from an empty store; an existing
                                  one goes on with the store it holds (history, unfinished transactions,
                                  subscriptions, clock). Every change is committed before it is applied, so a
                                  run that is killed leaves the file consistent. A `restart` step then closes
                                  the store and reopens it from the file, as a relaunched process would;
                                  without --state, `restart` reopens the queues on the same in-memory store.
                                  A damaged file, or one from a newer release, is reported and left as it is.

                Exit codes: 0 all passed, 1 an expectation failed, 2 a malformed feed or a usage error.

                """
        case "generate":
            return """
                Usage: openstorekit generate --users N --seed S [--steps N] [--output FILE]

                Writes a random but reproducible feed (the same seed gives the same feed) for load runs and
                benchmarks: users buying consumables, non-consumables and subscriptions, restores, time passing,
                and expectations the run checks.

                Options:
                  --users N     How many users (1 to 1000000).
                  --seed S      The random seed (a whole number).
                  --steps N     How many steps (default: 20 per user).
                  --output FILE Write the feed to FILE instead of standard output.

                """
        case "receipt":
            return """
                Usage: openstorekit receipt verify FILE (--root CERT... | --test-root) [--bundle-id ID]
                           [--app-version V] [--device-id UUID|MAC] [--at creation|now|ISO8601] [--allow-xcode]
                           [--compact]
                       openstorekit receipt dump FILE [--compact]

                verify checks an App Store receipt (PKCS#7, DER or base64): its structure, its signature, the chain to
                a trusted root at a chosen time (the receipt's creation date by default), Apple's certificate markers
                (unless --allow-xcode accepts Xcode's self-signed test receipts), and the bundle id, version and device
                hash when given. It trusts only the roots passed with --root (DER or PEM), plus OpenStoreKit's test
                root with --test-root. On success it prints the receipt as JSON with the field names of Apple's
                verifyReceipt answer and exits 0; on failure it prints {"error": {"code": ..., "message": ...}} and
                exits 1. Usage errors exit 2.

                dump prints the same JSON without verifying anything, marked "verified": false.

                """
        case "help":
            return "Usage: openstorekit help [COMMAND]\n\nShows help for a command.\n"
        default:
            return nil
        }
    }
}
