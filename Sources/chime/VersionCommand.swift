import ArgumentParser

/// `chime version`: the same string as `chime --version` (both read ``Chime/version``).
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print the version (the same as --version).")

    func run() {
        print(Chime.version)
    }
}
