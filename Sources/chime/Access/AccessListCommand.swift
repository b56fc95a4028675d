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
            if decisions.isEmpty { print("No app has asked yet."); return }
            let width = decisions.map { DisplayText.columns(DisplayText.singleLine($0.appID)) }.max() ?? 0
            for d in decisions {
                let status = d.status == .authorized ? "allowed" : "refused"
                let used = d.lastUsedAt.map { ", last used \(ItemFormat.human(.utc(CLIContext.zone.localTime(at: $0)), zone: .utc))" } ?? ""
                print(
                    "\(DisplayText.singleLine(d.appID).padding(toLength: width))  \(d.entityType.plural.padding(toLength: 9))  "
                        + "\(status) (\(d.decidedBy == "prompt" ? "asked" : "by command"))\(used)")
            }
        }
    }
}
