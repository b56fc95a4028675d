import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore

extension AccessCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the apps that were allowed or refused, and when they last used it.")
        @OptionGroup var options: StoreOptions

        func run() throws {
            let decisions = try options.open().access.decisions()
            if options.json {
                print(
                    JSONText.document([
                        (
                            "decisions",
                            JSONText.array(
                                decisions.map { d in
                                    JSONText.object([
                                        ("app", JSONText.string(d.appID)), ("kind", JSONText.string(d.entityType.rawValue)),
                                        ("status", JSONText.string(d.status.rawValue)), ("decided_by", JSONText.string(d.decidedBy)),
                                        ("decided_at", JSONText.string(d.decidedAt.description)),
                                        ("last_used", d.lastUsedAt.map { JSONText.string($0.description) } ?? "null")
                                    ])
                                })
                        )
                    ]))
                return
            }
            let messages = CLIContext.messages
            if decisions.isEmpty { print(messages("No app has asked yet.")); return }
            let width = decisions.map { DisplayText.columns(DisplayText.singleLine($0.appID)) }.max() ?? 0
            let kinds = [EntityType.event, .reminder].map {
                $0 == .event ? messages("events", context: "calendar list") : messages("reminders", context: "calendar list")
            }
            let kindWidth = max(9, kinds.map(DisplayText.columns).max() ?? 0)
            for d in decisions {
                let asked = d.decidedBy == "prompt"
                let status =
                    d.status == .authorized
                    ? (asked ? messages("allowed (asked)", context: "access list") : messages("allowed (by command)", context: "access list"))
                    : (asked ? messages("refused (asked)", context: "access list") : messages("refused (by command)", context: "access list"))
                let used = d.lastUsedAt.map {
                    messages(", last used {time}", ["time": ItemFormat.human(.utc(CLIContext.zone.localTime(at: $0)), zone: .utc, messages: messages)])
                }
                print(
                    "\(DisplayText.singleLine(d.appID).padding(toLength: width))  \(kinds[d.entityType == .event ? 0 : 1].padding(toLength: kindWidth))  "
                        + status + (used ?? ""))
            }
        }
    }
}
