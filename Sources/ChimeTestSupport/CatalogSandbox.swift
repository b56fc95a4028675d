import Foundation

/// The repository's translation catalogs compiled with `msgfmt`, and the locales of Chime's
/// languages generated with `localedef`, into a private folder (`LOCPATH`): nothing is installed
/// into the machine, and the tests run from a plain `swift test` as from `make test`.
///
/// ```swift
/// let (catalogs, locales) = CatalogSandbox.folders
/// environment["CHIME_LOCALEDIR"] = catalogs; environment["LOCPATH"] = locales
/// ```
public enum CatalogSandbox {
    public static let locales = ["zh_CN", "ja_JP", "ru_RU", "de_DE", "fr_FR", "es_ES"]

    /// The folder with `<lang>/LC_MESSAGES/chime.mo` and the one with the generated locales. Made
    /// once per process; the process's own `LOCPATH` is set to the second (glibc reads it when a
    /// locale is made).
    /// `environment` with `LANG` set to `language` (nil: removed) and the test catalogs and
    /// locales in place, as a process started in that language sees them.
    public static func environment(_ environment: [String: String], language: String?) -> [String: String] {
        var env = environment
        env["LANG"] = language
        env["LOCPATH"] = folders.locales
        env["CHIME_LOCALEDIR"] = folders.catalogs
        return env
    }

    public static let folders: (catalogs: String, locales: String) = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-lang-\(getpid())").path
        let po = #filePath.replacingOccurrences(of: "Sources/ChimeTestSupport/CatalogSandbox.swift", with: "po")
        let catalogs = root + "/locale", locales = root + "/locales"
        try? FileManager.default.createDirectory(atPath: locales, withIntermediateDirectories: true)
        for file in (try? FileManager.default.contentsOfDirectory(atPath: po)) ?? [] where file.hasSuffix(".po") {
            let folder = catalogs + "/" + file.dropLast(3) + "/LC_MESSAGES"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            run("/usr/bin/msgfmt", ["--check", "-o", folder + "/chime.mo", po + "/" + file])
        }
        for locale in Self.locales {
            run("/usr/bin/localedef", ["-i", locale, "-f", "UTF-8", locales + "/" + locale + ".UTF-8"])
        }
        setenv("LOCPATH", locales, 1)
        return (catalogs, locales)
    }()

    private static func run(_ tool: String, _ arguments: [String]) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try? p.run()
        p.waitUntilExit()
    }
}
