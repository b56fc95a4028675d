import ChimeLanguage
import Foundation
import Testing

/// The repository's catalogs compiled with `msgfmt` and the six languages' locales generated with
/// `localedef` into a private folder (`LOCPATH`): nothing is installed into the machine, and the
/// tests run from a plain `swift test` as from `make test`.
enum CatalogSandbox {
    static let languages = ["zh_CN", "ja_JP", "ru_RU", "de_DE", "fr_FR", "es_ES"]

    /// The folder with `<lang>/LC_MESSAGES/chime.mo` and the one with the generated locales.
    static let folders: (catalogs: String, locales: String) = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-lang-\(getpid())").path
        let po = #filePath.replacingOccurrences(of: "Tests/ChimeLanguageTests/CatalogSandbox.swift", with: "po")
        let catalogs = root + "/locale", locales = root + "/locales"
        try? FileManager.default.createDirectory(atPath: locales, withIntermediateDirectories: true)
        for file in (try? FileManager.default.contentsOfDirectory(atPath: po)) ?? [] where file.hasSuffix(".po") {
            let folder = catalogs + "/" + file.dropLast(3) + "/LC_MESSAGES"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            run("/usr/bin/msgfmt", ["--check", "-o", folder + "/chime.mo", po + "/" + file])
        }
        for language in languages {
            run("/usr/bin/localedef", ["-i", language, "-f", "UTF-8", locales + "/" + language + ".UTF-8"])
        }
        // glibc reads LOCPATH when a locale is made (newlocale): the test process's own lookups.
        setenv("LOCPATH", locales, 1)
        return (catalogs, locales)
    }()

    /// The catalog for a locale such as `ru_RU.UTF-8`.
    static func catalog(_ locale: String) -> MessageCatalog {
        let catalog = MessageCatalog(locale: locale, folder: folders.catalogs)
        #expect(catalog.isOpen, "the locale \(locale) was not generated")
        return catalog
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try? p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}
