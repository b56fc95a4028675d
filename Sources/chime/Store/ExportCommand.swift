import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeICS
import ChimeStore
import Foundation

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export events and reminders as an iCalendar (.ics) file.",
        discussion: """
            Valid RFC 5545: CRLF line ends, lines folded at 75 octets on character boundaries, \
            a VTIMEZONE for every zone used, detached occurrences as RECURRENCE-ID components, \
            reminders as VTODOs, each UID once (a UID in two calendars is written from the one \
            with the newer copy, with a warning), location alarms the way Apple writes them plus RFC 9074 \
            PROXIMITY, and every property kept from an import written back. Exporting several \
            calendars into one file names each item's calendar (X-CHIME-CALENDAR), so \
            `chime import` puts it back in a calendar of that name.

            Examples:
              chime export -o all.ics
              chime export --calendar Work > work.ics
            """)

    @OptionGroup var storePath: StorePathOption

    @Option(
        name: .customLong("calendar"),
        help: ArgumentHelp("Only this calendar or list (name or ID), with the list or calendar of its name; repeatable.", valueName: "name"),
        completion: .custom(ShellCompletion.calendars))
    var calendars: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let store = try StoreOptions.open(storePath.store, creating: false)
        var selected: [ChimeCore.Calendar]?
        if !calendars.isEmpty {
            // A name takes the calendar and the list of that name, as `chime import --new-calendar`
            // makes them: a backup of one holds its events and its to-dos.
            var chosen: [ChimeCore.Calendar] = []
            for name in calendars {
                let found = [try store.calendar(matching: name, for: .event), try store.calendar(matching: name, for: .reminder)].compactMap { $0 }
                guard !found.isEmpty else {
                    if let short = try CalendarChoice.shortIDPrefix(name, in: store, option: "--calendar") { throw short }
                    throw InputError(translatable: "--calendar: no calendar or list \"{name}\" (see `chime calendar list`)", ["name": name])
                }
                chosen += found.filter { c in !chosen.contains { $0.identifier == c.identifier } }
            }
            selected = chosen
        }
        // One calendar exported alone (with the list of its name) gets its name and the
        // calendar-level lines its import kept.
        let oneName = selected.map { Set($0.map { $0.title.lowercased() }).count == 1 } ?? false
        let only = oneName ? selected?.first { $0.entityType == .event } ?? selected?.first : nil
        var items = try store.allItems(in: selected)
        if only == nil {
            // Several calendars may hold one UID; a file holds it once.
            let (unique, duplicates) = ICalendar.oneCopyPerUID(items)
            items = unique
            func name(_ id: String) -> String { "\"\((try? store.calendar(withIdentifier: id))??.title ?? id)\"" }
            for d in duplicates {
                let warning = CLIContext.messages(
                    "warning: UID {uid} is in {calendars}: wrote the copy in {kept} (highest SEQUENCE, then newest); `--calendar` exports each one",
                    [
                        "uid": d.uid, "kept": name(d.kept),
                        "calendars": ([d.kept] + d.leftOut).map(name).reduce(into: "") { list, next in
                            list = list.isEmpty ? next : CLIContext.messages("{first} and {second}", ["first": list, "second": next])
                        }
                    ])
                FileHandle.standardError.write(Data((DisplayText.singleLine(warning) + "\n").utf8))
            }
        }
        if only == nil {
            // Several calendars in one file: each item names its own, for `chime import` to put it back.
            let titles = Dictionary(try EntityType.allCases.flatMap { try store.calendars(for: $0) }.map { ($0.identifier, $0.title) }) { a, _ in a }
            items = items.map { item in
                switch item {
                case .event(var e) where !e.isDetached:
                    if let t = e.calendarIdentifier.flatMap({ titles[$0] }) { e.icsExtras.append(ICalendar.calendarMarkerLine(t)) }
                    return .event(e)
                case .reminder(var r):
                    if let t = r.calendarIdentifier.flatMap({ titles[$0] }) { r.icsExtras.append(ICalendar.calendarMarkerLine(t)) }
                    return .reminder(r)
                default: return item
                }
            }
        }
        let bytes = ICalendar.serialize(
            items, calendarName: only?.title,
            calendarProperties: only?.icsExtras ?? [],
            now: CLIContext.now, floatingZone: store.floatingZone)
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
                throw InputError(translatable: "-o: cannot write {file}", ["file": output])
            }
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
    }
}
