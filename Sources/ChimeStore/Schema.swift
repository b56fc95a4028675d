import GRDB

/// The whole schema history in one migrator. Append migrations; never edit a shipped one.
enum Schema {
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: calendars, items, alarms, change journal") { db in
            try db.execute(
                sql: """
                    CREATE TABLE calendar (
                        id TEXT PRIMARY KEY NOT NULL,
                        title TEXT NOT NULL,
                        color TEXT NOT NULL,
                        entity_type TEXT NOT NULL CHECK (entity_type IN ('event', 'reminder')),
                        allows_modifications INTEGER NOT NULL DEFAULT 1,
                        is_default INTEGER NOT NULL DEFAULT 0
                    );
                    -- Events and reminders share one table so alarms and the journal can point at either.
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
                        range_end INTEGER,
                        CHECK (kind = 'reminder' OR (start IS NOT NULL AND "end" IS NOT NULL AND range_start IS NOT NULL)),
                        CHECK ((series_id IS NULL) = (recurrence_id IS NULL))
                    );
                    CREATE INDEX item_event_range ON item(kind, range_start, range_end);
                    CREATE INDEX item_calendar ON item(calendar_id);
                    CREATE INDEX item_series ON item(series_id) WHERE series_id IS NOT NULL;
                    CREATE INDEX item_completed_series ON item(completed_series_id) WHERE completed_series_id IS NOT NULL;
                    CREATE INDEX item_reminder_state ON item(kind, completed, completion_date);
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
                        proximity TEXT CHECK (proximity IN ('enter', 'leave')),
                        PRIMARY KEY (item_id, position),
                        CHECK ((absolute_date IS NOT NULL) + (relative_offset IS NOT NULL) + (proximity IS NOT NULL) = 1),
                        CHECK ((proximity IS NULL) = (latitude IS NULL))
                    ) WITHOUT ROWID;
                    -- Written in the same transaction as the data it describes.
                    CREATE TABLE change (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        entity TEXT NOT NULL CHECK (entity IN ('calendar', 'event', 'reminder')),
                        identifier TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('inserted', 'updated', 'deleted'))
                    );
                    """)
        }
        migrator.registerMigration("v2: alarm ledger, scheduler checkpoint") { db in
            try db.execute(
                sql: """
                    -- One row per alarm firing the scheduler has decided about, keyed like FiringKey.
                    -- A key without a row is "scheduled". No foreign key: the record outlives the item.
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
                    CREATE INDEX alarm_ledger_snoozed ON alarm_ledger(snoozed_until) WHERE state = 'snoozed';
                    CREATE INDEX alarm_ledger_updated ON alarm_ledger(updated);
                    -- Named instants the scheduler keeps across restarts ('checked_until').
                    CREATE TABLE scheduler_state (
                        name TEXT PRIMARY KEY NOT NULL,
                        value INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v3: iCalendar sequence and preserved properties") { db in
            try db.execute(
                sql: """
                    ALTER TABLE item ADD COLUMN sequence INTEGER NOT NULL DEFAULT 0;
                    -- Unfolded content lines Chime does not model, one per line, written back on export.
                    ALTER TABLE item ADD COLUMN ics_extras TEXT NOT NULL DEFAULT '';
                    ALTER TABLE alarm ADD COLUMN ics_extras TEXT NOT NULL DEFAULT '';
                    CREATE INDEX item_external_id ON item(external_id);
                    """)
        }
        migrator.registerMigration("v4: geofence states, last location fix") { db in
            try db.execute(
                sql: """
                    -- Where the user stands for each armed fence, keyed like FiringKey, so a restart
                    -- while inside does not fire "arrive" again. No foreign key: pruned by the daemon.
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
                    -- The newest position the daemon used (one row), for `chime geofence list`.
                    CREATE TABLE location_fix (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
                        longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
                        accuracy REAL NOT NULL CHECK (accuracy >= 0),
                        time_ms INTEGER NOT NULL,
                        provider TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v5: item revision") { db in
            try db.execute(
                sql: """
                    -- Counts the updates of a row: a save refuses a copy read before a change it would undo.
                    ALTER TABLE item ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        migrator.registerMigration("v6: calendar-level iCalendar properties") { db in
            // Unfolded VCALENDAR lines of an imported file (X-WR-TIMEZONE, X-WR-CALDESC …), one
            // per line, written back when the calendar is exported.
            try db.execute(sql: "ALTER TABLE calendar ADD COLUMN ics_extras TEXT NOT NULL DEFAULT ''")
        }
        migrator.registerMigration("v7: CalDAV accounts, collections, resources, conflicts") { db in
            try db.execute(
                sql: """
                    -- A CalDAV server account (EventKit's source). No password: it comes from the
                    -- password command or a prompt each time.
                    CREATE TABLE sync_account (
                        name TEXT PRIMARY KEY NOT NULL,
                        url TEXT NOT NULL,
                        username TEXT NOT NULL,
                        password_command TEXT,
                        principal TEXT,
                        home TEXT,
                        last_sync INTEGER,
                        last_error TEXT
                    );
                    -- A server collection mirrored by a local calendar (events) and/or list (reminders).
                    CREATE TABLE sync_collection (
                        id INTEGER PRIMARY KEY,
                        account TEXT NOT NULL REFERENCES sync_account(name) ON DELETE CASCADE,
                        url TEXT NOT NULL,
                        title TEXT NOT NULL,
                        event_calendar_id TEXT REFERENCES calendar(id) ON DELETE SET NULL,
                        reminder_calendar_id TEXT REFERENCES calendar(id) ON DELETE SET NULL,
                        sync_token TEXT,
                        ctag TEXT,
                        UNIQUE (account, url)
                    );
                    -- One server resource (one UID) as last seen in step with the local items:
                    -- its ETag, the server's copy (the base of a three-way merge) and the signature
                    -- of the local rows then. Local rows with another signature are to be pushed.
                    CREATE TABLE sync_resource (
                        collection_id INTEGER NOT NULL REFERENCES sync_collection(id) ON DELETE CASCADE,
                        href TEXT NOT NULL,
                        uid TEXT NOT NULL,
                        etag TEXT,
                        server_copy TEXT,
                        signature TEXT NOT NULL DEFAULT '',
                        -- The server holds something Chime keeps no item for (a VJOURNAL, a kind the
                        -- collection has no local calendar for): never pushed, never deleted.
                        foreign_content INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (collection_id, href)
                    ) WITHOUT ROWID;
                    CREATE INDEX sync_resource_uid ON sync_resource(collection_id, uid);
                    -- The losing side of a merge or a change to an item deleted elsewhere: never silently lost.
                    CREATE TABLE sync_conflict (
                        id INTEGER PRIMARY KEY,
                        collection_id INTEGER NOT NULL REFERENCES sync_collection(id) ON DELETE CASCADE,
                        href TEXT NOT NULL,
                        uid TEXT NOT NULL,
                        at INTEGER NOT NULL,
                        what TEXT NOT NULL,
                        lost_copy TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v8: subscribed calendars") { db in
            try db.execute(
                sql: """
                    -- A read-only calendar filled from a published .ics feed (webcal:// or https://).
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
                    """)
        }
        migrator.registerMigration("v9: per-app access decisions") { db in
            try db.execute(
                sql: """
                    -- What the user decided for an app that reaches Chime over D-Bus, per entity type
                    -- (EventKit's authorization status). No row: not determined yet.
                    CREATE TABLE app_access (
                        app_id TEXT NOT NULL,           -- flatpak:ID | unit:NAME | exe:PATH
                        entity_type TEXT NOT NULL CHECK (entity_type IN ('event', 'reminder')),
                        status TEXT NOT NULL CHECK (status IN ('denied', 'authorized')),
                        decided_by TEXT NOT NULL,       -- prompt | command
                        decided_at INTEGER NOT NULL,
                        last_used_at INTEGER,
                        PRIMARY KEY (app_id, entity_type)
                    );
                    """)
        }
        migrator.registerMigration("v10: alarm commands named on the command line") { db in
            try db.execute(
                sql: """
                    -- The [commands] entry of config.toml an item's alarms run, set only by `chime add/edit
                    -- --alarm-command`. Beside the item, not in it: import, sync and export never read or
                    -- write this table, so no file or server can name a command.
                    CREATE TABLE alarm_command (
                        item_id TEXT PRIMARY KEY NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                        name TEXT NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v11: day masks of series, for window queries") { db in
            try db.execute(
                sql: """
                    -- Which UTC days an event's occurrences can touch (ChimeCore's DayMasks: bits of
                    -- weekdays, days of the month, months; every day for a single event). A window query
                    -- passes over series that cannot occur in its days inside the index, without reading them.
                    ALTER TABLE item ADD COLUMN day_weekdays INTEGER;
                    ALTER TABLE item ADD COLUMN day_monthdays INTEGER;
                    ALTER TABLE item ADD COLUMN day_months INTEGER;
                    DROP INDEX item_event_range;
                    CREATE INDEX item_event_range ON item(kind, range_start, range_end, day_weekdays, day_monthdays, day_months);
                    """)
            try ItemRows.fillDayMasks(db)
        }
        migrator.registerMigration("v12: the timing an alarm command was linked for") { db in
            // The item's timing when the user linked the command (EventStore.timingSignature): an
            // import, a server or a D-Bus app that re-times the item does not get to run the command.
            try db.execute(sql: "ALTER TABLE alarm_command ADD COLUMN timing TEXT")
            for item in try String.fetchAll(db, sql: "SELECT item_id FROM alarm_command") {
                try db.execute(
                    sql: "UPDATE alarm_command SET timing = ? WHERE item_id = ?",
                    arguments: [try EventStore.timingSignature(db, item: item), item])
            }
        }
        migrator.registerMigration("v13: the user's calendar addresses on each account's server") { db in
            // RFC 6638 calendar-user-address-set, newline-separated; NULL until the server was asked.
            try db.execute(sql: "ALTER TABLE sync_account ADD COLUMN addresses TEXT")
        }
        migrator.registerMigration("v14: the calendars each collection's server expands (RFC 7529)") { db in
            // CALDAV:supported-rscale-set, comma-separated; NULL when the server does not list one.
            try db.execute(sql: "ALTER TABLE sync_collection ADD COLUMN rscales TEXT")
        }
        migrator.registerMigration("v15: what can still fire, found without reading the history") { db in
            // The daemon's start reads the events that have not ended (by range_end) and the few
            // past ones whose alarms fire after them (an absolute date, an after-start offset):
            // a store's years of past events are then never read (the index holds the ID, so the
            // alarms of those events are found without reading their rows). Indexes only: SQLite keeps
            // them with the rows, so nothing derived can disagree with the items.
            try db.execute(
                sql: """
                    CREATE INDEX item_event_end ON item(kind, range_end, id);
                    CREATE INDEX alarm_absolute ON alarm(absolute_date) WHERE absolute_date IS NOT NULL;
                    CREATE INDEX alarm_after_start ON alarm(item_id) WHERE relative_offset > 0;
                    """)
        }
        migrator.registerMigration("v16: server copies in a table that keeps them on its pages") { db in
            // A WITHOUT ROWID table keeps at most about 1,000 bytes of a row on its b-tree page
            // and spills the rest to an overflow page of its own: a server copy of 1 to 2 KB (most
            // events) took a whole 4 KB page beside its row, about 3.3 KB per resource, and every
            // first sync wrote that twice (the WAL, then the file). A rowid table keeps rows of up to
            // about 4 KB on its pages; (collection_id, href) stays unique through its index.
            try db.execute(
                sql: """
                    CREATE TABLE sync_resource_rows (
                        collection_id INTEGER NOT NULL REFERENCES sync_collection(id) ON DELETE CASCADE,
                        href TEXT NOT NULL,
                        uid TEXT NOT NULL,
                        etag TEXT,
                        server_copy TEXT,
                        signature TEXT NOT NULL DEFAULT '',
                        foreign_content INTEGER NOT NULL DEFAULT 0,
                        UNIQUE (collection_id, href)
                    );
                    INSERT INTO sync_resource_rows (collection_id, href, uid, etag, server_copy, signature, foreign_content)
                        SELECT collection_id, href, uid, etag, server_copy, signature, foreign_content FROM sync_resource;
                    DROP TABLE sync_resource;
                    ALTER TABLE sync_resource_rows RENAME TO sync_resource;
                    CREATE INDEX sync_resource_uid ON sync_resource(collection_id, uid);
                    """)
        }
        migrator.registerMigration("v17: the change journal checked without lists") { db in
            // SQLite 3.40 checks `entity IN ('calendar', 'event', 'reminder')` by building a
            // temporary index of the list for every row it checks: two per journal entry, which
            // made an import's 12,000 entries cost about as much as storing 4,000 of its items.
            // The same checks as comparisons; the entries and the sequence stay as they were.
            let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'change'")
            try db.execute(
                sql: """
                    CREATE TABLE change_rows (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        entity TEXT NOT NULL CHECK (entity = 'calendar' OR entity = 'event' OR entity = 'reminder'),
                        identifier TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind = 'inserted' OR kind = 'updated' OR kind = 'deleted')
                    );
                    INSERT INTO change_rows (seq, entity, identifier, kind) SELECT seq, entity, identifier, kind FROM change;
                    DROP TABLE change;
                    ALTER TABLE change_rows RENAME TO change;
                    """)
            // A journal compacted to nothing still carries its sequence, which never goes back.
            if let sequence {
                try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = 'change'")
                try db.execute(
                    sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('change', max(?, coalesce((SELECT max(seq) FROM change), 0)))",
                    arguments: [sequence])
            }
        }
        migrator.registerMigration("v18: the to-do state index holds to-dos only") { db in
            // Every query it serves says `kind = 'reminder'`, which a partial index matches; the
            // events' entries were written by every import and read by nothing.
            try db.execute(
                sql: """
                    DROP INDEX item_reminder_state;
                    CREATE INDEX item_reminder_state ON item(completed, completion_date) WHERE kind = 'reminder';
                    """)
        }
        return migrator
    }()
}
