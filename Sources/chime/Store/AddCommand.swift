import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an event or a reminder.",
        subcommands: [AddEventCommand.self, AddReminderCommand.self])
}
