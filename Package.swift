// swift-tools-version:6.1
import PackageDescription

// Chime: alarms and reminders for the Linux desktop.
// Layers (see docs/design.md): ChimeCore (pure: time, recurrence, model) ← ChimeICS (pure: iCalendar)
// ← ChimeStore (SQLite), and above the store two branches that meet in ChimeDaemon:
//   ChimeStore ← ChimeScheduler ← ChimeDesktop (libnotify, GeoClue)
//   ChimeStore ← ChimeCalDAV (CalDAV sync on libcurl, passwords in libsecret; needs only Store, ICS and Core)
//   ChimeStore ← ChimeFormat (how values are typed and read, every output shape: the CLI's and the bus's)
//   ChimeCore ← ChimeLanguage (the user's language: glibc's gettext catalogs, the words dates are typed with)
// ← ChimeDaemon (with its D-Bus service) ← chime (CLI).
// libical appears only in test and benchmark targets, as the independent peer engine.
let package = Package(
    name: "Chime",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ChimeCore", targets: ["ChimeCore"]),
        .library(name: "ChimeStore", targets: ["ChimeStore"]),
        .library(name: "ChimeICS", targets: ["ChimeICS"]),
        .library(name: "ChimeScheduler", targets: ["ChimeScheduler"]),
        .library(name: "ChimeDesktop", targets: ["ChimeDesktop"]),
        .library(name: "ChimeCalDAV", targets: ["ChimeCalDAV"]),
        .library(name: "ChimeFormat", targets: ["ChimeFormat"]),
        .executable(name: "chime", targets: ["chime"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0")
    ],
    targets: [
        // Pure core: civil time, time zones, RFC 5545 recurrence. No I/O apart from reading tzdata.
        .target(name: "ChimeCore", dependencies: [.product(name: "HeapModule", package: "swift-collections")]),

        // iCalendar (RFC 5545) in and out: content lines, components, items, VTIMEZONE. Pure, no I/O.
        .target(name: "ChimeICS", dependencies: ["ChimeCore"]),

        // The calendar database: EventStore on SQLite (GRDB), change journal, cross-process watch, .ics import.
        .target(
            name: "ChimeStore",
            dependencies: [
                "ChimeCore",
                "ChimeICS",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's own C interface (GRDB's module of it): the rows an import writes are
                // bound straight to their statements (ChimeStore/BoundValues.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "HeapModule", package: "swift-collections")
            ]
        ),

        // Linux calls the Glibc module does not export (timerfd), and SQLite's variadic
        // configuration call (the SQLite GRDB links).
        .target(name: "CLinuxShim", linkerSettings: [.linkedLibrary("sqlite3")]),

        // The alarm scheduler: ledger-backed delivery, catch-up, snooze, on an injected wall clock;
        // the NotificationSink port and the stdout sink.
        .target(
            name: "ChimeScheduler",
            dependencies: [
                "ChimeCore",
                "ChimeStore",
                "CLinuxShim",
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log")
            ]
        ),

        // Desktop adapters at the edge, each on its own GLib main-loop thread: libnotify (Debian
        // libnotify-dev) for notifications, libgeoclue-2 (libgeoclue-2-dev) for GeoClue2 positions.
        .systemLibrary(
            name: "CLibnotify",
            pkgConfig: "libnotify",
            providers: [.apt(["libnotify-dev"])]
        ),
        .systemLibrary(
            name: "CGeoclue",
            pkgConfig: "libgeoclue-2.0",
            providers: [.apt(["libgeoclue-2-dev"])]
        ),
        // libcanberra (Debian libcanberra0) plays an alarm's sound from the freedesktop sound theme
        // when the notification server plays none itself (dunst, mako and others lack `sound`); it is
        // loaded with dlopen on the first sound (ChimeDesktop/Canberra.swift), not linked.
        .target(name: "ChimeDesktop", dependencies: ["ChimeScheduler", "ChimeStore", "ChimeCore", "CLibnotify", "CGeoclue"]),

        // CalDAV accounts and two-way sync at the edge: HTTP on libcurl's easy interface (Debian
        // libcurl4-openssl-dev for curl.h; the library is opened with dlopen on the first request,
        // not linked, so other commands and the daemon do not load it and the libraries it needs;
        // CCurlShim has the typed wrappers for its variadic setopt), WebDAV XML on libxml2's streaming
        // parser (Debian libxml2; opened with dlopen on the first answer by CXMLShim, not linked as
        // Foundation's XMLParser links it, which loaded it and ICU into every command). URLSession is
        // not used: on Linux it spins a core while it waits.
        .target(name: "CCurlShim"),
        .target(name: "CXMLShim"),
        // Passwords kept in the desktop's Secret Service (GNOME Keyring, KeePassXC …) through libsecret
        // (Debian libsecret-1-0), so that none is ever stored in plain text. It is opened with dlopen on
        // the first password call, not linked (CLibsecret/shim.h declares the calls), so commands and
        // a daemon without CalDAV accounts do not load it and libgcrypt; GIO's headers are what it builds on.
        .systemLibrary(
            name: "CLibsecret",
            pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        .target(name: "ChimeCalDAV", dependencies: ["ChimeCore", "ChimeICS", "ChimeStore", "CCurlShim", "CXMLShim", "CLibsecret"]),

        // Chime's one voice: how dates, durations and references are typed and read (by the command
        // line and the D-Bus service alike, against a per-call clock and zone), and every output shape
        // (the byte writer, text views, JSON documents, references). Pure apart from stdout.
        .target(name: "ChimeFormat", dependencies: ["ChimeCore", "ChimeStore"]),

        // The user's language: the translation catalog (glibc's gettext, through CIntl) and what
        // it holds beside messages, such as the words dates are typed with.
        .systemLibrary(name: "CIntl", path: "Sources/CIntl"),
        .target(name: "ChimeLanguage", dependencies: ["ChimeCore", "CIntl"]),

        // `chime daemon`: configuration (TOML), single-instance lock, services and signals, and its
        // D-Bus service (the same JSON shapes as the command line's --json, through ChimeFormat).
        .target(
            name: "ChimeDaemon",
            dependencies: [
                "CLinuxShim",
                "ChimeScheduler",
                "ChimeDesktop",
                "ChimeStore",
                "ChimeCore",
                "ChimeCalDAV",
                "ChimeFormat",
                "ChimeLanguage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "TOMLKit", package: "TOMLKit")
            ]
        ),

        // The command-line tool.
        // (CLinuxShim: timerfd and thread names for the process's own executors, Sources/chime/Executors.)
        .executableTarget(
            name: "chime",
            dependencies: [
                "CLinuxShim",
                "ChimeLanguage",
                "ChimeCore",
                "ChimeStore",
                "ChimeScheduler",
                "ChimeDaemon",
                "ChimeDesktop",
                "ChimeCalDAV",
                "ChimeFormat",
                "ChimeICS",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            // Linked by the toolchain's lld with packed relative relocations (DT_RELR, glibc 2.36):
            // the 96,000 relocations of a static-runtime binary take 19 KB instead of 2.3 MB, which
            // every process read at start and the daemon kept resident (docs/benchmarks-speed.md).
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])]
        ),

        // libical (Debian libical-dev), the peer engine for the differential test and the benchmark.
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        .target(name: "LibicalShim", dependencies: ["CLibical"]),

        // Seeded randomness shared by the tests and the benchmark workload.
        .target(name: "ChimeTestSupport"),

        // Release-build benchmark: Chime vs libical on the same workload, same run.
        .executableTarget(name: "chime-bench", dependencies: ["ChimeCore", "ChimeTestSupport", "LibicalShim"]),
        // Release-build benchmark of the geofence engine: one fix against 100,000 fences, against a
        // brute-force scan of every fence in the same run.
        .executableTarget(name: "chime-geofence-bench", dependencies: ["ChimeCore", "ChimeTestSupport"]),
        // Release-build benchmark of the store: one-year queries on 10,000 events, whole `chime agenda`
        // processes, cross-process change latency; calcurse on the same data in the same run.
        .executableTarget(name: "chime-store-bench", dependencies: ["ChimeStore", "ChimeCore", "ChimeICS", "ChimeTestSupport"]),

        .testTarget(
            name: "ChimeCoreTests", dependencies: ["ChimeCore", "ChimeTestSupport", "LibicalShim"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "ChimeStoreTests",
            dependencies: [
                "ChimeStore", "ChimeCore", "ChimeTestSupport",
                .product(name: "GRDB", package: "GRDB.swift")
            ]),
        // libFuzzer harnesses (`make fuzz`); in a normal build each replays files given as arguments.
        .executableTarget(name: "RRuleFuzz", dependencies: ["ChimeCore"]),
        .executableTarget(name: "ICSFuzz", dependencies: ["ChimeICS", "ChimeCore"]),

        .testTarget(
            name: "ChimeICSTests", dependencies: ["ChimeICS", "ChimeStore", "ChimeCore", "RRuleFuzz", "ICSFuzz", "ChimeTestSupport"],
            exclude: ["Corpus"], resources: [.copy("Fixtures")]),
        .testTarget(name: "ChimeSchedulerTests", dependencies: ["ChimeScheduler", "ChimeStore", "ChimeCore"]),
        .testTarget(name: "ChimeDesktopTests", dependencies: ["ChimeDesktop", "ChimeScheduler", "ChimeCore", "ChimeTestKit"]),
        .testTarget(
            name: "ChimeDaemonTests",
            dependencies: [
                "ChimeDaemon", "ChimeStore", "ChimeCore", "ChimeDesktop", "ChimeCalDAV", "ChimeFormat", "ChimeScheduler",
                "ChimeTestSupport", "ChimeTestKit", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log")
            ]),
        .testTarget(
            name: "ChimeCLITests",
            dependencies: [
                "chime", "ChimeStore", "ChimeCore", "ChimeDaemon", "ChimeDesktop", "ChimeCalDAV", "ChimeTestSupport", "ChimeTestKit",
                "ChimeScheduler", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log")
            ], exclude: ["Snapshots"]),
        .testTarget(name: "ChimeFormatTests", dependencies: ["ChimeFormat", "ChimeStore", "ChimeCore"]),
        .testTarget(name: "ChimeLanguageTests", dependencies: ["ChimeLanguage", "ChimeCore", "ChimeScheduler", "ChimeTestSupport"]),
        .testTarget(
            name: "ChimeCalDAVTests",
            dependencies: [
                "ChimeCalDAV", "ChimeStore", "ChimeICS", "ChimeCore", "ChimeTestKit", "ChimeTestSupport",
                .product(name: "GRDB", package: "GRDB.swift")
            ]),
        // What the test targets that run processes and real services share: the `chime` runner, a
        // daemon child process, the services sandbox. Test-only (it imports Testing).
        .target(name: "ChimeTestKit", dependencies: ["ChimeCalDAV"], path: "Tests/ChimeTestKit")
    ]
)
