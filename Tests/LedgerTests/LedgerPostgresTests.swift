#if Postgres
    import Foundation
    import Synchronization
    import TestSupport
    import Testing

    @testable import Ledger

    /// What a database on a PostgreSQL server does beyond the tests every backend runs (`TestDatabases.each`):
    /// streaming, errors that abort a PostgreSQL transaction, reopening, and the connection itself.
    @Suite("Ledger databases on a PostgreSQL server", .requiresPostgres)
    struct LedgerPostgresTests {
        @Test("forEach streams 100,000 records in key order, with reads in between")
        func forEachStreamsALargeCollection() throws {
            try TestDatabases.withServerSchema { url in
                let db = try LedgerDatabase(url: url)
                try db.write { txn in try txn.put([1], forKey: "other", in: "small") }
                // Rows written directly, so that the test does not take 100,000 round trips to fill.
                try LedgerDatabase.runOnServer(
                    url,
                    "INSERT INTO ledger_records (collection, key, value) SELECT 'big'::bytea, "
                        + "convert_to(lpad(i::text, 6, '0'), 'UTF8'), int4send(i) FROM generate_series(1, 100000) i")
                try db.read { txn throws in
                    var count = 0
                    var previous = ""
                    try txn.forEach(in: "big") { key, value throws in
                        count += 1
                        #expect(key > previous)
                        previous = key
                        if count % 25_000 == 0 {
                            // A read while the iteration is under way.
                            #expect(try txn.value(forKey: key, in: "big") == value)
                        }
                    }
                    #expect(count == 100_000)
                    #expect(previous == "100000")
                    var scanned = 0
                    try txn.forEachValueByScan(in: "big") { value in
                        #expect(value.count == 4)
                        scanned += 1
                    }
                    #expect(scanned == 100_000)
                    #expect(try txn.collections() == ["big", "small"])
                }
            }
        }

        @Test("A reopened database has everything, and new log sequences are greater than every earlier one")
        func reopenKeepsEverything() throws {
            try TestDatabases.withServerSchema { url in
                var sequences: [Int64] = []
                do {
                    let db = try LedgerDatabase(url: url)
                    try db.write { txn in
                        try txn.put("v".bytes, forKey: "k", in: "c")
                        try txn.setMeta("text", forKey: "s")
                        try txn.stamp(forKey: "T", at: Date(timeIntervalSinceReferenceDate: 7))
                        for index in 0..<3 { sequences.append(try txn.appendLog([UInt8(index)], to: "log")) }
                    }
                    _ = try db.write { txn in try txn.removeLogEntries(in: "log", through: .max) }
                }
                let db = try LedgerDatabase(url: url)
                try db.read { txn throws in
                    #expect(try txn.value(forKey: "k", in: "c") == "v".bytes)
                    #expect(try txn.metaString(forKey: "s") == "text")
                    #expect(try txn.stampDate(forKey: "T") == Date(timeIntervalSinceReferenceDate: 7))
                    #expect(try txn.logCount(in: "log") == 0)
                }
                let next = try db.write { txn in try txn.appendLog([9], to: "log") }
                #expect(next > sequences.max()!)
            }
        }

        @Test("A second open is refused as in use, naming the holder, until the first is released")
        func oneUserAtATime() throws {
            try TestDatabases.withServerSchema { url in
                var first: LedgerDatabase? = try LedgerDatabase(url: url)
                try first?.write { txn in try txn.put([1], forKey: "k", in: "c") }
                let pid = try #require(first?.serverProcessID)
                let error = try #require(throws: LedgerError.self) { try LedgerDatabase(url: url) }
                #expect(error.code == .inUse)
                #expect(error.detail.contains("in use by another process"))
                #expect(error.detail.contains("server process \(pid)"))
                #expect(error.detail.contains("openstorekit"))
                first = nil
                let second = try LedgerDatabase(url: url)
                #expect(try second.read { txn in try txn.value(forKey: "k", in: "c") } == [1])
            }
        }

        @Test("Two opens of a new schema at once create it once: one opens, the other is refused as in use")
        func concurrentCreation() throws {
            try TestDatabases.withServerSchema { url in
                let opened = Mutex<[LedgerDatabase]>([])
                let refusals = Mutex<[LedgerError]>([])
                DispatchQueue.concurrentPerform(iterations: 2) { _ in
                    do {
                        let db = try LedgerDatabase(url: url)
                        opened.withLock { $0.append(db) }
                    } catch {
                        refusals.withLock { $0.append(error as? LedgerError ?? LedgerError(code: .serverFailure)) }
                    }
                }
                #expect(opened.withLock { $0.count } == 1)
                #expect(refusals.withLock { $0.map(\.code) } == [.inUse])
            }
        }

        @Test("A failing statement in a group write whose body catches it undoes that write alone")
        func failingStatementInAGroupWrite() throws {
            try TestDatabases.withServerSchema { url in
                let db = try LedgerDatabase(url: url)
                try LedgerDatabase.runOnServer(
                    url, "ALTER TABLE ledger_records ADD CONSTRAINT refused CHECK (key <> 'bad'::bytea)")
                let committer = LedgerGroupCommitter(database: db, commitEvery: 100)
                let log = CompletionLog()
                try committer.write({ txn in try txn.put([0], forKey: "k0", in: "c") }, whenDurable: log.completion(0))
                let error = try #require(throws: LedgerError.self) {
                    try committer.write(
                        { txn in
                            try txn.put([1], forKey: "k1", in: "c")
                            #expect(throws: LedgerError(code: .serverFailure)) {
                                try txn.put([2], forKey: "bad", in: "c")
                            }
                            // Further writes in the aborted transaction are refused, not applied one by one.
                            #expect(throws: LedgerError(code: .transactionAborted)) {
                                try txn.put([3], forKey: "k3", in: "c")
                            }
                        }, whenDurable: log.completion(1))
                }
                #expect(error.code == .transactionAborted)
                #expect(committer.pendingWrites == 1)
                try committer.write({ txn in try txn.put([4], forKey: "k4", in: "c") }, whenDurable: log.completion(4))
                try committer.flush()
                #expect(log.succeeded == [0, 4])
                #expect(try db.read { txn in try txn.all(in: "c").map(\.key) } == ["k0", "k4"])
            }
        }

        @Test("A failing append without a savepoint loses the group, and says so to every completion")
        func failingAppendLosesTheGroup() throws {
            try TestDatabases.withServerSchema { url in
                let db = try LedgerDatabase(url: url)
                try LedgerDatabase.runOnServer(
                    url, "ALTER TABLE ledger_log ADD CONSTRAINT refused CHECK (name <> 'bad'::bytea)")
                let committer = LedgerGroupCommitter(database: db, commitEvery: 100)
                let log = CompletionLog()
                try committer.appendLog([1], to: "events", whenDurable: log.completion(1))
                try committer.write({ txn in try txn.put([2], forKey: "k", in: "c") }, whenDurable: log.completion(2))
                #expect(throws: LedgerError(code: .serverFailure)) {
                    try committer.appendLog([3], to: "bad", whenDurable: log.completion(3))
                }
                #expect(log.failed == [1, 2])
                #expect(committer.pendingWrites == 0)
                // The database goes on.
                try committer.appendLog([4], to: "events", whenDurable: log.completion(4))
                try committer.flush()
                #expect(log.succeeded == [4])
                try db.read { txn throws in
                    #expect(try txn.logEntries(in: "events").map(\.payload) == [[4]])
                    #expect(try txn.count(in: "c") == 0)
                }
            }
        }

        @Test("A plain write whose body catches a failed statement applies nothing")
        func plainWriteThatSwallowsAnError() throws {
            try TestDatabases.withServerSchema { url in
                let db = try LedgerDatabase(url: url)
                try LedgerDatabase.runOnServer(
                    url, "ALTER TABLE ledger_records ADD CONSTRAINT refused CHECK (key <> 'bad'::bytea)")
                #expect(throws: LedgerError(code: .transactionAborted)) {
                    try db.write { txn in
                        try txn.put([1], forKey: "k1", in: "c")
                        _ = try? txn.put([2], forKey: "bad", in: "c")
                    }
                }
                #expect(try db.read { txn in try txn.count(in: "c") } == 0)
                try db.write { txn in try txn.put([1], forKey: "k1", in: "c") }
                #expect(try db.read { txn in try txn.count(in: "c") } == 1)
            }
        }

        @Test("The options are the session's settings, and a lock held past the busy timeout is busy")
        func optionsAndBusy() throws {
            try TestDatabases.withServerSchema { url in
                do {
                    let db = try LedgerDatabase(url: url, options: LedgerOptions(synchronous: .normal))
                    #expect(try db.serverSetting("synchronous_commit") == "off")
                }
                let db = try LedgerDatabase(url: url, options: LedgerOptions(busyTimeout: .milliseconds(50)))
                #expect(try db.serverSetting("synchronous_commit") == "on")
                #expect(try db.serverSetting("lock_timeout") == "50ms")
                #expect(try db.serverSetting("application_name") == "openstorekit")
                try LedgerDatabase.withServerSession(url) { run in
                    _ = try run("BEGIN; LOCK TABLE ledger_records IN ACCESS EXCLUSIVE MODE")
                    let error = try #require(throws: LedgerError.self) {
                        try db.write { txn in try txn.put([1], forKey: "k", in: "c") }
                    }
                    #expect(error.code == .busy)
                    #expect(error.detail.contains("55P03"))
                    _ = try run("COMMIT")
                }
                try db.write { txn in try txn.put([1], forKey: "k", in: "c") }
                #expect(try db.read { txn in try txn.count(in: "c") } == 1)
            }
        }

        @Test("A lost connection makes every later call throw a clear error")
        func lostConnection() throws {
            try TestDatabases.withServerSchema { url in
                let db = try LedgerDatabase(url: url)
                try db.write { txn in try txn.put([1], forKey: "k", in: "c") }
                let pid = try #require(db.serverProcessID)
                // Waits (up to 10 s) until the server process has exited.
                let ended = try LedgerDatabase.runOnServer(url, "SELECT pg_terminate_backend(\(pid), 10000)")
                #expect(ended == [["t"]])
                for _ in 0..<2 {
                    let error = try #require(throws: LedgerError.self) {
                        try db.read { txn in try txn.count(in: "c") }
                    }
                    #expect(error.code == .cannotOpen)
                    #expect(error.detail.contains(db.location))
                    #expect(error.detail.contains("connection"))
                    #expect(throws: LedgerError(code: .cannotOpen)) {
                        try db.write { txn in try txn.put([2], forKey: "k", in: "c") }
                    }
                }
            }
        }

        @Test("An unreachable server or a bad URL is an error naming the URL without its password")
        func unreachableServerAndBadURL() throws {
            for url in [
                "postgresql://someone:s3cretpw@127.0.0.1:1/store",
                "postgresql:///store?host=/nonexistent/socket/dir&password=s3cretpw",
                "postgres://someone:s3cret%70w@[::1/store",
            ] {
                let error = try #require(throws: LedgerError.self) { try LedgerDatabase(url: url) }
                #expect(error.code == .cannotOpen)
                #expect(error.detail.contains(LedgerDatabase.location(ofServerURL: url)))
                #expect(error.path == LedgerDatabase.location(ofServerURL: url))
                #expect(!error.description.contains("s3cret"))
            }
        }

        @Test("The location of a database opened with a password has none")
        func locationHasNoPassword() throws {
            try TestDatabases.withServerSchema { url in
                // The test server trusts its clients, so the password is accepted and ignored.
                let withPassword = url + "&password=s3cretpw"
                let db = try LedgerDatabase(url: withPassword)
                #expect(db.path == nil)
                #expect(db.location == url)
                let error = try #require(throws: LedgerError.self) { try LedgerDatabase(url: withPassword) }
                #expect(error.code == .inUse)
                #expect(!error.description.contains("s3cretpw"))
            }
        }
    }
#endif
