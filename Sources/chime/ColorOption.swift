import ArgumentParser
import ChimeFormat

/// `--color auto|always|never`, for the commands that print views for people.
struct ColorOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Colour: auto (on a terminal, unless NO_COLOR is set), always or never.", valueName: "when"))
    var color: Choice = .auto

    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    /// Makes the choice the one ``Style`` follows; call before printing.
    func apply() { Style.use(Style.Choice(rawValue: color.rawValue) ?? .auto) }
}
