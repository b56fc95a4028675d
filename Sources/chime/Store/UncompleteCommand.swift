import ArgumentParser
import ChimeCore
import ChimeStore

struct UncompleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uncomplete",
        abstract: "Mark a completed reminder as not done (undoes the latest completion of a repeating one).")

    @OptionGroup var options: StoreOptions
    @OptionGroup var bus: ViaBusOption
    @Argument(help: "Reminder ID (of the completed copy, for a repeating reminder).", completion: .custom(ShellCompletion.items)) var id: String

    func run() throws {
        if bus.viaBus { let id = id; return try bus.run(needing: .reminder) { try await $0.complete(id, done: false) } }
        try CompletionChange.set(false, id: id, options: options)
    }
}
