/// Usage texts of the `openstorekit` command.
enum Help {
    static let commands = [
        "demo", "run", "generate", "receipt", "jws", "serve", "token", "check-state", "help", "version",
    ]

    /// The options that take a value, per command.
    static let options: [String: Set<String>] = [
        "demo": ["--log", "--receipt-out", "--jws-out", "--state"],
        "run": [
            "--log", "--log-dir", "--junit", "--jobs", "--state", "--database", "--commit", "--host", "--port",
            "--issuer-id", "--bundle-id", "--notifications-url", "--control-token", "--rate-limits", "--delivery",
        ],
        "generate": ["--users", "--seed", "--steps", "--output"],
        "token": ["--api-key", "--issuer-id", "--bundle-id", "--lifetime", "--url", "--control-token"],
        "serve": [
            "--host", "--port", "--config", "--state", "--database", "--issuer-id", "--bundle-id",
            "--notifications-url", "--control-token", "--rate-limits", "--delivery",
        ],
    ]

    /// How every output option writes its file (shown in the help of the commands that have one).
    static let outputFiles = """
        Output files: FILE may be - (standard output), /dev/stdout or /dev/fd/N (that descriptor), or an existing
        FIFO or character device, which are written through. A regular file is replaced atomically (a temporary file
        in its directory, renamed over it when complete); a symbolic link to a regular file replaces the file it
        points to and stays a link. A directory, a block device, a socket, a link to nothing, an existing file you may
        not write, or a path that is one of the command's inputs (a feed, a state file or its -wal, -shm and .lock
        files) or another of its outputs is refused before anything runs; no directory is created until then.
        """

    static let overview = """
        openstorekit: StoreKit's payment queue over a simulated App Store, driven by scripted feeds.

        Usage: openstorekit COMMAND [OPTIONS]

        Commands:
          demo        Run the built-in demo feed and print its event log.
          run         Run feed files and print a verdict for each.
          generate    Write a large random but reproducible feed.
          receipt     Verify or dump an App Store receipt (Apple's or the simulator's).
          jws         Verify or decode StoreKit 2 signed data (compact JWS: transactions, renewal info, ...).
          serve       Serve the App Store Server API and send Server Notifications V2 (build with --traits Server).
          token       Print an App Store Server API token (a JWT signed with a .p8 key), for curl.
          check-state Check a whole state file (every page, table, record and journal entry), writing nothing.
          help        Show help for a command: openstorekit help run (or openstorekit run --help)
          version     Print the release: openstorekit version (or openstorekit --version)

        Verdicts, progress and errors go to standard error; event logs, feeds, reports and JSON go to standard output.
        Exit codes: 0 success, 1 an expectation failed, 2 a usage error, a malformed feed or an output that could
        not be written (standard output included). A missing input (a feed, receipt, JWS, certificate, key or
        catalog) is a usage error, reported as `FILE: no such file` before anything runs.
        The feed language: docs/feeds.md.

        """

    /// The usage of a command (or of an action, such as `receipt verify`), ending with a line feed; nil for a name
    /// that is neither.
    static func command(_ name: String) -> String? {
        guard let text = usage(name) else { return nil }
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    private static func usage(_ name: String) -> String? {
        switch name {
        case "demo":
            return """
                Usage: openstorekit demo [--log FILE] [--receipt-out FILE] [--jws-out DIR] [--state FILE]

                Runs the built-in demo feed (a purchase, a failure, an Ask to Buy approval and a restore) on the
                built-in catalog and prints its event log to standard output, one JSON object per line (so
                `openstorekit demo | jq` works), and the verdict (PASS or FAIL) to standard error.

                Options:
                  --log FILE          Write the event log to FILE instead of standard output.
                  --receipt-out FILE  Write the app receipt (DER) as it stands at the end of the demo, signed by the
                                      test PKI in Receipts/ (check it with `openstorekit receipt verify FILE
                                      --test-root` or `openssl cms -verify`).
                  --jws-out DIR       Write every StoreKit 2 JWS the store signs at the end of the demo to DIR
                                      (created if missing), one file each: transaction-<id>-<product>.jws,
                                      renewal-info-<original id>-<group>.jws, app-transaction-<account>.jws.
                                      They are signed by the JWS test PKI, environment Sandbox; check them with
                                      `openstorekit jws verify DIR/*.jws --root Receipts/jws/root.pem`.
                  --state FILE        Run the demo on the store kept in the state file FILE (see `openstorekit help
                                      run`). A new file gives the same log as a run in memory. A file left by an
                                      earlier demo goes on with the store it holds: its clock (a day further per
                                      run), purchase history and transaction identifiers carry on, so the log
                                      differs; the expectations still pass until the store's clock passes the end
                                      of the demo subscription's first month (2026-01-09, the eighth run on one
                                      file), when `expect subscribed` fails because the subscription has renewed.
                                      Give a new file for the demo as it is on a fresh store.

                Exit codes: 0 the demo passed, 1 an expectation failed, 2 a usage error or an unusable state file.

                \(outputFiles)

                """
        case "run":
            return """
                Usage: openstorekit run FEED... [--log FILE | --log-dir DIR] [--junit FILE] [--jobs N]
                                        [--state PATH | --database PATH|URL] [--commit step|change]
                       openstorekit run FEED --serve [--keep-serving] [--host ADDR] [--port N] [--allow-remote]
                                        [--api-key KEYID=FILE.p8]... [--issuer-id ID] [--bundle-id ID]
                                        [--notifications-url URL] [--control-token TOKEN]
                                        [--rate-limits apple|sandbox] [--delivery production|sandbox] [run's options]

                Runs each feed on its own store, independent feeds in parallel over the machine's cores, and prints
                to standard error PASS or FAIL per feed (with the first failed expectation and its line), or ERROR
                for a malformed feed, then `N passed, M failed`. Standard output carries only what is asked for
                there: `--log -` (or `--junit -`) writes the event logs (or the report) to it, for a pipe. When
                standard error is a terminal, a run that lasts over two seconds shows the steps run so far and the
                steps per second there, on one line updated in place four times a second at most.

                Options:
                  --log FILE      Write the event logs of all feeds, in the order given, to FILE.
                  --log-dir DIR   Write each feed's event log to DIR/<feed name>.jsonl.
                  --junit FILE    Write a JUnit XML report to FILE.
                  --jobs N        Run at most N feeds at once (default: the number of cores).
                  --state PATH    Keep each feed's store in an SQLite state file instead of memory. With one feed,
                                  PATH is the file; with several (or when PATH is a directory), each feed gets
                                  PATH/<feed name>.sqlite. A new file starts from an empty store; an existing
                                  one goes on with the store it holds (history, unfinished transactions,
                                  subscriptions, clock). The store commits once per step, so a run that is
                                  killed leaves the file as it was after a complete step. A `restart` step closes
                                  the store and reopens it from the file, as a relaunched process would;
                                  without --state, `restart` reopens the queues on the same in-memory store.
                                  A damaged file, or one from a newer release, is reported and left as it is;
                                  a file of an earlier release is migrated, with a copy kept as FILE.v1.bak.
                  --database PATH|URL
                                  What --state does (not with it), or with a postgresql:// URL the store of
                                  one feed in a database on a PostgreSQL server (a build with --traits
                                  Postgres): `restart` reopens it from there; one store uses a database at a
                                  time. Messages show the URL without its password.
                  --commit WHEN   With --state or --database: `step` (default) commits once per step; `change`
                                  commits every change, flushed to the disk, before it is applied (for crash
                                  tests).
                  --serve         Serve the feed's store while it runs, as `openstorekit serve` does (one feed;
                                  a build with --traits Server). The base URL is the first line on standard
                                  output. Notifications go to --notifications-url, or else to a receiver built
                                  in that verifies each one; `expect notification TYPE [SUBTYPE] ...` steps check
                                  them in order. The run waits (at most 60 s) until every notification was
                                  attempted, then stops the server. serve's options apply: --host, --port,
                                  --allow-remote, --api-key, --issuer-id, --bundle-id, --notifications-url,
                                  --control-token, --rate-limits and --delivery (see `openstorekit help serve`).
                  --keep-serving  With --serve: once the feed ended, go on serving until SIGINT or SIGTERM (for a
                                  backend that queries the API afterwards), then stop with the same exit status.

                Exit codes: 0 all passed, 1 an expectation failed, 2 a malformed feed or a usage error.

                \(outputFiles)

                """
        case "generate":
            return """
                Usage: openstorekit generate --users N --seed S [--steps N] [--output FILE]

                Writes a random but reproducible feed (the same seed gives the same feed) for load runs and
                benchmarks: users buying consumables, non-consumables and subscriptions, restores, time passing,
                and expectations the run checks. Each user's steps span the same store time whatever the number of
                users (beyond 1,000 users, time moves in proportionately shorter steps), so a step of a feed of 20
                steps per user costs the same at any size.

                Options:
                  --users N     How many users (1 to 1000000).
                  --seed S      The random seed (a whole number).
                  --steps N     How many steps (default: 20 per user).
                  --output FILE Write the feed to FILE instead of standard output.

                \(outputFiles)

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
                exits 1. Usage errors exit 2, a missing file among them (`FILE: no such file`).

                dump prints the same JSON without verifying anything, marked "verified": false.

                """
        case "receipt verify":
            return """
                Usage: openstorekit receipt verify FILE (--root CERT... | --test-root) [--bundle-id ID]
                           [--app-version V] [--device-id UUID|MAC] [--at creation|now|ISO8601] [--allow-xcode]
                           [--compact]

                Verifies an App Store receipt; see `openstorekit help receipt` for what is checked and the output.
                """
        case "receipt dump":
            return """
                Usage: openstorekit receipt dump FILE [--compact]

                Prints a receipt as JSON without verifying anything, marked "verified": false; see `openstorekit help
                receipt`.
                """
        case "serve":
            return """
                Usage: openstorekit serve [--host ADDR] [--port N] [--allow-remote] [--config FILE.storekit]
                           [--state PATH | --database PATH|URL] [--api-key KEYID=FILE.p8]... [--issuer-id ID]
                           [--bundle-id ID]
                           [--notifications-url URL] [--control-token TOKEN] [--rate-limits apple|sandbox]
                           [--delivery production|sandbox]

                Serves a simulated store over HTTP: the App Store Server API under Apple's paths (/inApps/...), Server
                Notifications V2 POSTed to --notifications-url, and a control API (/openstorekit/v1/...) that drives
                the store. The first line on standard output is the base URL (http://127.0.0.1:PORT); SIGINT or
                SIGTERM stops the server, commits the state and exits 0. Needs a build with the package trait Server
                (swift build --traits Server --scratch-path .build/server, which a plain swift build does not
                replace) and libmicrohttpd-dev. `openstorekit token` mints API tokens for curl. Walk-through:
                docs/server.md.

                Options:
                  --host ADDR              The numeric address to listen on; 127.0.0.1 by default.
                  --allow-remote           Allow an address other than loopback (others can then reach the API).
                  --port N                 The port; 0 (the default) lets the system pick one, printed first.
                  --config FILE            The .storekit catalog; the demo catalog by default.
                  --state PATH             Keep the store (and the notification history, in PATH.notifications) in
                                           a state file, as `run --state` does.
                  --database PATH|URL      What --state does (not with it), or with a postgresql:// URL keep the
                                           store and the notification history in a database on a PostgreSQL
                                           server (a build with --traits Server,Postgres); one server per
                                           database: a second one on it is refused.
                  --api-key KEYID=FILE     An In-App Purchase key (.p8) that may sign API tokens; repeatable.
                  --issuer-id ID           The issuer id tokens must name (iss).
                  --bundle-id ID           The app: the bundle id tokens must name (bid) and signed data carry.
                  --notifications-url URL  Where to POST notifications; none are sent without it.
                  --control-token TOKEN    The control API's bearer token; a random one (printed on standard
                                           error) by default.
                  --rate-limits LIMITS     Enforce Apple's App Store Server API rate limits, per endpoint, counted
                                           per hour of the store's clock: apple (production's) or sandbox (10 % of
                                           them). Past a limit: 429 RateLimitExceededError with Retry-After (UNIX
                                           time in milliseconds). Off by default.
                  --delivery MODE          production (the default): a failed notification is retried 1, 12, 24,
                                           48 and 72 hours later on the store's clock; sandbox: attempted once.

                """
        case "token":
            return """
                Usage: openstorekit token --api-key KEYID=FILE.p8 --issuer-id ID --bundle-id ID [--lifetime SECONDS]
                           [--url BASE --control-token TOKEN]

                Prints an App Store Server API bearer token on standard output: a JWT signed ES256 with the In-App
                Purchase key FILE.p8 (PKCS#8 PEM, as App Store Connect hands out), header alg ES256, kid KEYID and typ
                JWT, claims iss, iat, exp, aud appstoreconnect-v1 and bid, as Apple's App Store Server Libraries make
                it. For curl against `openstorekit serve` (or Apple's servers):
                  curl -H "Authorization: Bearer $(openstorekit token --api-key ...)" "$URL/inApps/v1/..."

                Options:
                  --api-key KEYID=FILE     The key id and the .p8 file of the key that signs (as serve takes it).
                  --issuer-id ID           The issuer id (iss).
                  --bundle-id ID           The app's bundle id (bid); with --url, the served store's by default.
                  --lifetime SECONDS       exp is iat plus this: 1 to 3600 (Apple's limit), 300 by default.
                  --url BASE               The base URL of a served store (the first line `openstorekit serve`
                                           prints): iat is the served store's clock, read from its control API
                                           (GET BASE/openstorekit/v1/store), so the token is valid on a store whose
                                           clock was moved. Without it, iat is the system clock.
                  --control-token TOKEN    With --url: the served store's control token.

                Exit codes: 0 the token was printed, 2 a usage error, a key that cannot be read, or a served store
                that cannot be reached.

                """
        case "jws":
            return """
                Usage: openstorekit jws verify FILE... (--root CERT... | --test-root) [--at creation|now|ISO8601]
                           [--bundle-id ID] [--environment Sandbox|Production|Xcode|LocalTesting] [--allow-xcode]
                           [--no-strict] [--compact]
                       openstorekit jws decode FILE [--compact]

                verify checks StoreKit 2 signed data (a compact JWS per file: a signed transaction, renewal info,
                app transaction or server notification) as Apple's App Store Server Libraries do: alg ES256, an x5c
                of leaf, intermediate and root, the ES256 signature, the chain from the leaf through the intermediate
                to a trusted root at a chosen time (the payload's signedDate, or an app transaction's
                receiptCreationDate, by default; the root in x5c is never trusted), Apple's marker extensions on leaf
                and intermediate, then the environment and the bundle id when given. It trusts only the roots passed
                with --root (DER or PEM), plus OpenStoreKit's JWS test root (Receipts/jws/root.pem) with --test-root.
                --allow-xcode accepts Xcode-signed data: one self-signed certificate in x5c that is itself a
                trusted root, over a payload whose environment is Xcode. --no-strict turns off OpenSSL's strict
                X.509 rules, which Apple's mock test certificates fail.

                For each file it prints {"file": ..., "payload": {...}, "verified": true} with the payload's own
                (Apple's) key names, or {"error": {"code": ..., "message": ..., "name": ..., "file": ...}}. Exit
                codes: 0 every file verified, 1 a file was refused (a file that is not a JWS is refused with code
                600), 2 a usage error, a missing file among them (`FILE: no such file`, before any file is read).

                decode prints the header and payload without verifying anything, marked "verified": false.

                """
        case "jws verify":
            return """
                Usage: openstorekit jws verify FILE... (--root CERT... | --test-root) [--at creation|now|ISO8601]
                           [--bundle-id ID] [--environment Sandbox|Production|Xcode|LocalTesting] [--allow-xcode]
                           [--no-strict] [--compact]

                Verifies StoreKit 2 signed data; see `openstorekit help jws` for what is checked and the output.
                """
        case "jws decode":
            return """
                Usage: openstorekit jws decode FILE [--compact]

                Prints a JWS's header and payload as JSON without verifying anything, marked "verified": false; see
                `openstorekit help jws`.
                """
        case "help":
            return """
                Usage: openstorekit help [COMMAND [ACTION]]

                Shows help for a command (or an action: openstorekit help receipt verify, openstorekit help jws
                verify), as does openstorekit COMMAND --help (or -h).
                """
        case "check-state":
            return """
                Usage: openstorekit check-state FILE

                Checks a whole state file (docs/durable-state.md, "How damage is noticed"), as opening a store no
                longer does by default: SQLite's quick_check of every page, every table and journal entry as opening
                reads them, and every record of the history, each listed by the index of its account's records. It
                writes nothing to the file, its -wal or -shm. Prints "FILE: ok" and exits 0, or names the damage (the
                table and row) and exits 1.

                """
        case "version":
            return """
                Usage: openstorekit version (or openstorekit --version)

                Prints the release of the openstorekit command.
                """
        case "crash-workload":
            return """
                Usage: openstorekit crash-workload --state PATH|--database URL --seed S [--steps N]
                           [--commit-every K] [--compact-every C] [--format 1]

                Runs the crash test's workload on a state file (or a server database; --format 1 is for files only),
                printing one line per acknowledged step and grant
                (used by the test suite; see docs/durable-state.md).
                """
        default:
            return nil
        }
    }
}
