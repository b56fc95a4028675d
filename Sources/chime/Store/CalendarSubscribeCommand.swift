import ArgumentParser
import ChimeCalDAV
import ChimeCore
import ChimeFormat
import ChimeICS
import ChimeStore
import Foundation

extension CalendarCommand {
    struct Subscribe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "subscribe",
            abstract: "Subscribe to a published calendar (webcal:// or https:// .ics): read-only, refreshed.",
            discussion: """
                Holidays, a sports fixture list, a colleague's published calendar. The feed is read the way \
                `chime import` reads files (repairs are printed as warnings); its events land in a read-only \
                calendar. `chime daemon` refreshes it every --refresh (a conditional GET: an unchanged feed \
                costs one short answer); `chime calendar refresh` does it now. `chime calendar remove NAME` \
                unsubscribes.
                  chime calendar subscribe webcal://example.org/holidays.ics \\
                    --name Holidays --refresh 1d
                """)
        @OptionGroup var options: StoreOptions
        @Argument(help: "The feed: webcal://, https:// or http://.") var url: String
        @Option(help: "The calendar's title (default: the feed's own name, else its file name).") var name: String?
        @Option(help: ArgumentHelp("How often the daemon fetches it again: 30m, 6h, 1d, 1w (at least 5m, at most 366d).", valueName: "duration"))
        var refresh: String = "6h"

        func validate() throws {
            // Too long a period is a usage error, as for every numeric option; too short a one is
            // said in run() (exit 1).
            if let seconds = try? Durations.seconds(refresh, option: "--refresh"), seconds > ValueBounds.refreshSeconds.upperBound {
                try OptionBounds.check("--refresh", text: refresh, seconds: seconds, ValueBounds.refreshSeconds)
            }
        }

        func run() async throws {
            let fetch = try FeedRefresh.fetchURL(url)
            let every = try Durations.seconds(refresh, option: "--refresh")
            guard every >= ValueBounds.refreshSeconds.lowerBound else { throw InputError(translatable: "--refresh: at least 5m (feeds are not polled faster)") }
            // The feed is fetched before anything is stored: a wrong URL leaves no calendar behind.
            let response: DAVResponse, read: Result<ICSParseResult, ICSError>
            do { (response, read) = try await FeedRefresh.fetch(fetch, file: url) } catch { throw InputError("\(error)") }
            guard response.status == 200 else {
                throw InputError(
                    translatable: "{url}: GET answered HTTP {status}; nothing subscribed", ["url": fetch.absoluteString, "status": "\(response.status)"])
            }
            let parsed: ICSParseResult
            do { parsed = try read.get() } catch {
                throw InputError(DisplayText.singleLine("\(fetch.absoluteString): \(error)") + "; nothing subscribed")
            }
            let title = name ?? parsed.calendarName ?? fetch.deletingPathExtension().lastPathComponent
            // Opened once the feed is read: a wrong URL makes no new store either.
            let store = try options.open(creating: true)
            if try store.calendar(named: title, for: .event) != nil {
                throw InputError(translatable: "a calendar named \"{name}\" exists already; give another with --name", ["name": DisplayText.singleLine(title)])
            }
            let subscription = try store.addSubscription(url: url, title: title, refreshSeconds: every)
            let result: SubscriptionRefresh
            do {
                result = try store.applySubscription(
                    subscription, parsed: parsed, etag: response.etag,
                    lastModified: response.headers["last-modified"], at: CLIContext.clock())
            } catch {
                try? store.removeCalendar(ChimeCore.Calendar(identifier: subscription.calendarIdentifier, title: title, entityType: .event))
                throw InputError(DisplayText.singleLine("\(fetch.absoluteString): \(error)") + "; nothing subscribed")
            }
            CalendarCommand.report(result, title: title, json: options.json)
        }
    }

    // Warnings and errors quote the feed's text: printed through DisplayText.singleLine, so a
    // feed cannot send terminal controls (escape sequences, BEL) to the terminal.
    static func json(_ r: SubscriptionRefresh, title: String) -> String {
        ImportCommand.warn(r.warnings)
        return JSONText.object([
            ("calendar", JSONText.string(title)), ("added", "\(r.added)"), ("updated", "\(r.updated)"),
            ("removed", "\(r.removed)"), ("notes", "\(r.notes.count)")
        ])
    }

    static func report(_ r: SubscriptionRefresh, title: String, json: Bool) {
        if json {
            print(JSONText.versioned(Self.json(r, title: title)))
        } else {
            ImportCommand.warn(r.warnings)
            print(
                CLIContext.messages(
                    "{calendar}: {added} new, {updated} updated, {removed} removed",
                    ["calendar": DisplayText.singleLine(title), "added": "\(r.added)", "updated": "\(r.updated)", "removed": "\(r.removed)"]))
        }
    }
}
