import GRDB

extension Schema {
    /// Makes the schema in `db`, an empty file, as the migrations would, in one transaction; does
    /// nothing to a file that holds anything. Returns whether it made it.
    ///
    /// The migrations one by one had SQLite read the whole schema again after each change: 46 M
    /// instructions, 6 to 8 ms before an import into a new store could begin. ``newStore`` is what
    /// they leave, and `SchemaSnapshotTests` proves it (every table, index and their text, the
    /// migrations' names, the counters), so the migrations stay the one source of the schema.
    ///
    /// ```swift
    /// try pool.write { db in _ = try Schema.makeNewStore(db) }
    /// try Schema.migrator.migrate(pool)   // then nothing is left to do
    /// ```
    static func makeNewStore(_ db: Database) throws -> Bool {
        guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0 else { return false }
        try db.execute(sql: newStore)
        return true
    }

    /// What ``newStore`` must hold for the file in `db`, which the migrations made: its tables,
    /// indexes, views and triggers in the order they were made, then the migrations' names and
    /// the AUTOINCREMENT counters, one SQL statement per entry.
    static func newStoreText(_ db: Database) throws -> String {
        var statements: [String] = []
        for type in ["table", "index", "view", "trigger"] {
            statements += try String.fetchAll(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = ? AND sql IS NOT NULL AND name != 'sqlite_sequence' ORDER BY rowid",
                arguments: [type]
            ).map { $0 + ";" }
        }
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        statements += try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid").map {
            "INSERT INTO grdb_migrations (identifier) VALUES (\(quoted($0)));"
        }
        if try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'") == 1 {
            statements += try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence ORDER BY rowid").map { row in
                "INSERT INTO sqlite_sequence (name, seq) VALUES (\(quoted(row[0])), \(row[1] as Int64));"
            }
        }
        return statements.joined(separator: "\n")
    }

    /// The Swift source of this file's ``newStore`` for `text` (``newStoreText(_:)``'s).
    static func newStoreSource(_ text: String) -> String {
        let indented = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "        " + $0 }
        return "    static let newStore = #\"\"\"\n" + indented.joined(separator: "\n") + "\n        \"\"\"#\n"
    }

    // What the migrations leave in a new file. Written by SchemaSnapshotTests: when a migration
    // is added, the test fails and writes this declaration anew for the file.
    static let newStore = #"""
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
        CREATE TABLE calendar (
            id TEXT PRIMARY KEY NOT NULL,
            title TEXT NOT NULL,
            color TEXT NOT NULL,
            entity_type TEXT NOT NULL CHECK (entity_type IN ('event', 'reminder')),
            allows_modifications INTEGER NOT NULL DEFAULT 1,
            is_default INTEGER NOT NULL DEFAULT 0
        , ics_extras TEXT NOT NULL DEFAULT '');
        CREATE TABLE item (
            id TEXT PRIMARY KEY NOT NULL,
            calendar_id TEXT NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('event', 'reminder')),
            external_id TEXT NOT NULL,
            title TEXT NOT NULL,
            notes TEXT,
            url TEXT,
            location TEXT,
            start TEXT,                 -- CalendarDate.storageText
            "end" TEXT,
            due TEXT,
            rrules TEXT NOT NULL DEFAULT '',    -- one canonical RRULE per line
            rdates TEXT NOT NULL DEFAULT '',    -- RFC 5545 basic forms, one per line
            exdates TEXT NOT NULL DEFAULT '',
            -- A detached occurrence: the series it overrides and the instant it replaces.
            series_id TEXT REFERENCES item(id) ON DELETE CASCADE,
            recurrence_id INTEGER,
            -- The completed copy of one instance of a recurring reminder.
            completed_series_id TEXT REFERENCES item(id) ON DELETE SET NULL,
            priority INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN 0 AND 9),
            completed INTEGER NOT NULL DEFAULT 0,
            completion_date INTEGER,
            created INTEGER NOT NULL,
            modified INTEGER NOT NULL,
            -- Query bounds in UTC seconds (floating times read as UTC; queries widen by 14 h).
            -- Events: first start .. last end (NULL = never ends). Reminders: due (or start).
            range_start INTEGER,
            range_end INTEGER, sequence INTEGER NOT NULL DEFAULT 0, ics_extras TEXT NOT NULL DEFAULT '', revision INTEGER NOT NULL DEFAULT 0, day_weekdays INTEGER, day_monthdays INTEGER, day_months INTEGER,
            CHECK (kind = 'reminder' OR (start IS NOT NULL AND "end" IS NOT NULL AND range_start IS NOT NULL)),
            CHECK ((series_id IS NULL) = (recurrence_id IS NULL))
        );
        CREATE TABLE alarm (
            item_id TEXT NOT NULL REFERENCES item(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            absolute_date INTEGER,
            relative_offset INTEGER,
            related_to_end INTEGER NOT NULL DEFAULT 0,
            location_title TEXT,
            latitude REAL CHECK (latitude BETWEEN -90 AND 90),
            longitude REAL CHECK (longitude BETWEEN -180 AND 180),
            radius REAL CHECK (radius >= 0),
            proximity TEXT CHECK (proximity IN ('enter', 'leave')), ics_extras TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (item_id, position),
            CHECK ((absolute_date IS NOT NULL) + (relative_offset IS NOT NULL) + (proximity IS NOT NULL) = 1),
            CHECK ((proximity IS NULL) = (latitude IS NULL))
        ) WITHOUT ROWID;
        CREATE TABLE alarm_ledger (
            item_id TEXT NOT NULL,
            occurrence INTEGER NOT NULL,
            alarm TEXT NOT NULL,
            fire_at INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('scheduled', 'delivered', 'snoozed', 'dismissed', 'missed')),
            title TEXT NOT NULL,
            delivered_at INTEGER,
            snoozed_until INTEGER,
            deliveries INTEGER NOT NULL DEFAULT 0,
            updated INTEGER NOT NULL,
            PRIMARY KEY (item_id, occurrence, alarm),
            CHECK ((state = 'snoozed') = (snoozed_until IS NOT NULL))
        ) WITHOUT ROWID;
        CREATE TABLE scheduler_state (
            name TEXT PRIMARY KEY NOT NULL,
            value INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE geofence_state (
            item_id TEXT NOT NULL,
            occurrence INTEGER NOT NULL,
            alarm TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('unknown', 'inside', 'outside')),
            since INTEGER,
            pending TEXT CHECK (pending IN ('inside', 'outside')),
            pending_since INTEGER,
            PRIMARY KEY (item_id, occurrence, alarm),
            CHECK ((pending IS NULL) = (pending_since IS NULL))
        ) WITHOUT ROWID;
        CREATE TABLE location_fix (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
            longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
            accuracy REAL NOT NULL CHECK (accuracy >= 0),
            time_ms INTEGER NOT NULL,
            provider TEXT NOT NULL
        );
        CREATE TABLE sync_account (
            name TEXT PRIMARY KEY NOT NULL,
            url TEXT NOT NULL,
            username TEXT NOT NULL,
            password_command TEXT,
            principal TEXT,
            home TEXT,
            last_sync INTEGER,
            last_error TEXT
        , addresses TEXT);
        CREATE TABLE sync_collection (
            id INTEGER PRIMARY KEY,
            account TEXT NOT NULL REFERENCES sync_account(name) ON DELETE CASCADE,
            url TEXT NOT NULL,
            title TEXT NOT NULL,
            event_calendar_id TEXT REFERENCES calendar(id) ON DELETE SET NULL,
            reminder_calendar_id TEXT REFERENCES calendar(id) ON DELETE SET NULL,
            sync_token TEXT,
            ctag TEXT, rscales TEXT,
            UNIQUE (account, url)
        );
        CREATE TABLE sync_conflict (
            id INTEGER PRIMARY KEY,
            collection_id INTEGER NOT NULL REFERENCES sync_collection(id) ON DELETE CASCADE,
            href TEXT NOT NULL,
            uid TEXT NOT NULL,
            at INTEGER NOT NULL,
            what TEXT NOT NULL,
            lost_copy TEXT NOT NULL
        );
        CREATE TABLE subscription (
            calendar_id TEXT PRIMARY KEY NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            url TEXT NOT NULL,
            refresh_seconds INTEGER NOT NULL CHECK (refresh_seconds > 0),
            -- The feed's validators, for a conditional GET (304: nothing to do).
            etag TEXT,
            last_modified TEXT,
            last_refresh INTEGER,
            last_error TEXT
        );
        CREATE TABLE app_access (
            app_id TEXT NOT NULL,           -- flatpak:ID | unit:NAME | exe:PATH
            entity_type TEXT NOT NULL CHECK (entity_type IN ('event', 'reminder')),
            status TEXT NOT NULL CHECK (status IN ('denied', 'authorized')),
            decided_by TEXT NOT NULL,       -- prompt | command
            decided_at INTEGER NOT NULL,
            last_used_at INTEGER,
            PRIMARY KEY (app_id, entity_type)
        );
        CREATE TABLE alarm_command (
            item_id TEXT PRIMARY KEY NOT NULL REFERENCES item(id) ON DELETE CASCADE,
            name TEXT NOT NULL
        , timing TEXT) WITHOUT ROWID;
        CREATE TABLE "sync_resource" (
            collection_id INTEGER NOT NULL REFERENCES sync_collection(id) ON DELETE CASCADE,
            href TEXT NOT NULL,
            uid TEXT NOT NULL,
            etag TEXT,
            server_copy TEXT,
            signature TEXT NOT NULL DEFAULT '',
            foreign_content INTEGER NOT NULL DEFAULT 0,
            UNIQUE (collection_id, href)
        );
        CREATE TABLE "change" (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            entity TEXT NOT NULL CHECK (entity = 'calendar' OR entity = 'event' OR entity = 'reminder'),
            identifier TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind = 'inserted' OR kind = 'updated' OR kind = 'deleted')
        );
        CREATE INDEX item_calendar ON item(calendar_id);
        CREATE INDEX item_series ON item(series_id) WHERE series_id IS NOT NULL;
        CREATE INDEX item_completed_series ON item(completed_series_id) WHERE completed_series_id IS NOT NULL;
        CREATE INDEX alarm_ledger_snoozed ON alarm_ledger(snoozed_until) WHERE state = 'snoozed';
        CREATE INDEX alarm_ledger_updated ON alarm_ledger(updated);
        CREATE INDEX item_external_id ON item(external_id);
        CREATE INDEX item_event_range ON item(kind, range_start, range_end, day_weekdays, day_monthdays, day_months);
        CREATE INDEX item_event_end ON item(kind, range_end, id);
        CREATE INDEX alarm_absolute ON alarm(absolute_date) WHERE absolute_date IS NOT NULL;
        CREATE INDEX alarm_after_start ON alarm(item_id) WHERE relative_offset > 0;
        CREATE INDEX sync_resource_uid ON sync_resource(collection_id, uid);
        CREATE INDEX item_reminder_state ON item(completed, completion_date) WHERE kind = 'reminder';
        INSERT INTO grdb_migrations (identifier) VALUES ('v1: calendars, items, alarms, change journal');
        INSERT INTO grdb_migrations (identifier) VALUES ('v2: alarm ledger, scheduler checkpoint');
        INSERT INTO grdb_migrations (identifier) VALUES ('v3: iCalendar sequence and preserved properties');
        INSERT INTO grdb_migrations (identifier) VALUES ('v4: geofence states, last location fix');
        INSERT INTO grdb_migrations (identifier) VALUES ('v5: item revision');
        INSERT INTO grdb_migrations (identifier) VALUES ('v6: calendar-level iCalendar properties');
        INSERT INTO grdb_migrations (identifier) VALUES ('v7: CalDAV accounts, collections, resources, conflicts');
        INSERT INTO grdb_migrations (identifier) VALUES ('v8: subscribed calendars');
        INSERT INTO grdb_migrations (identifier) VALUES ('v9: per-app access decisions');
        INSERT INTO grdb_migrations (identifier) VALUES ('v10: alarm commands named on the command line');
        INSERT INTO grdb_migrations (identifier) VALUES ('v11: day masks of series, for window queries');
        INSERT INTO grdb_migrations (identifier) VALUES ('v12: the timing an alarm command was linked for');
        INSERT INTO grdb_migrations (identifier) VALUES ('v13: the user''s calendar addresses on each account''s server');
        INSERT INTO grdb_migrations (identifier) VALUES ('v14: the calendars each collection''s server expands (RFC 7529)');
        INSERT INTO grdb_migrations (identifier) VALUES ('v15: what can still fire, found without reading the history');
        INSERT INTO grdb_migrations (identifier) VALUES ('v16: server copies in a table that keeps them on its pages');
        INSERT INTO grdb_migrations (identifier) VALUES ('v17: the change journal checked without lists');
        INSERT INTO grdb_migrations (identifier) VALUES ('v18: the to-do state index holds to-dos only');
        INSERT INTO sqlite_sequence (name, seq) VALUES ('change', 0);
        """#
}
