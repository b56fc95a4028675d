// swift-tools-version:6.1
import PackageDescription

// Chime: alarms and reminders for the Linux desktop.
// Layers (see README "Design"): ChimeCore (pure: time, recurrence, model) ← ChimeStore (SQLite) ← chime (CLI).
// libical appears only in test and benchmark targets, as the independent peer engine.
let package = Package(
    name: "Chime",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ChimeCore", targets: ["ChimeCore"]),
        .library(name: "ChimeStore", targets: ["ChimeStore"]),
        .executable(name: "chime", targets: ["chime"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
    ],
    targets: [
        // Pure core: civil time, time zones, RFC 5545 recurrence. No I/O apart from reading tzdata.
        .target(name: "ChimeCore"),

        // The calendar database: EventStore on SQLite (GRDB), change journal, cross-process watch.
        .target(
            name: "ChimeStore",
            dependencies: [
                "ChimeCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),

        // The command-line tool.
        .executableTarget(
            name: "chime",
            dependencies: [
                "ChimeCore",
                "ChimeStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
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
        // Release-build benchmark of the store: one-year queries on 10,000 events, whole `chime agenda`
        // processes, cross-process change latency; calcurse on the same data in the same run.
        .executableTarget(name: "chime-store-bench", dependencies: ["ChimeStore", "ChimeCore", "ChimeTestSupport"]),

        .testTarget(name: "ChimeCoreTests", dependencies: ["ChimeCore", "ChimeTestSupport", "LibicalShim"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "ChimeStoreTests", dependencies: ["ChimeStore", "ChimeCore", "ChimeTestSupport",
                                                      .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "ChimeCLITests", dependencies: ["chime", "ChimeStore", "ChimeCore"], exclude: ["Snapshots"]),
    ]
)
