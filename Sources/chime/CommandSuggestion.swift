import ChimeCore
import ArgumentParser

/// "Did you mean …?" for a mistyped subcommand (`chime agnda`), before the argument parser
/// answers with a bare "Unexpected argument".
enum CommandSuggestion {
    /// The message for the first word that should name a subcommand and names none, if any.
    static func unknownSubcommand(in arguments: [String], root: ParsableCommand.Type, messages: Messages = .english) -> String? {
        // The shells' completion scripts call `chime ---completion …`: the parser's own business.
        if arguments.first == "---completion" { return nil }
        // `chime --color always agenda today`: options before the command name are not read.
        if let first = arguments.first, first.hasPrefix("-"), !["-h", "--help", "--version"].contains(first),
            let at = arguments.firstIndex(where: { word in root.configuration.subcommands.contains { $0._commandName == word } })
        {
            let moved = [arguments[at]] + arguments[(at + 1)...] + arguments[..<at]
            return messages("options go after the command's name: {command}", ["command": "\(root._commandName) \(moved.joined(separator: " "))"])
        }
        var command = root
        var path = [root._commandName]
        for word in arguments {
            if word.hasPrefix("-") || word == "help" { return nil }  // options, and the built-in help, are the parser's
            let children = command.configuration.subcommands
            guard !children.isEmpty else { return nil }
            var matched: ParsableCommand.Type?
            for child in children where child._commandName == word || child.configuration.aliases.contains(word) { matched = child }
            if let child = matched {
                command = child
                path.append(word)
                continue
            }
            // A command whose default subcommand takes positional words (`chime agenda today`) is fine.
            // Under a command with a default subcommand the word may be that one's argument: speak
            // only when it is close to a subcommand's name.
            let hasDefault = command.configuration.defaultSubcommand.map { ObjectIdentifier($0) != ObjectIdentifier(OverviewCommand.self) } ?? false
            var names: [String] = []
            for child in children where child.configuration.shouldDisplay { names.append(child._commandName) }
            let best = EditDistance.closest(to: word.lowercased(), in: names)
            if hasDefault && best == nil { return nil }
            let place = path.joined(separator: " ")
            guard let best else {
                return messages("'{word}' is not a {place} command. Run '{place} --help' for the list.", ["word": word, "place": place])
            }
            return messages(
                "'{word}' is not a {place} command. Did you mean '{suggestion}'? Run '{place} --help' for the list.",
                ["word": word, "place": place, "suggestion": "\(place) \(best)"])
        }
        return nil
    }

}
