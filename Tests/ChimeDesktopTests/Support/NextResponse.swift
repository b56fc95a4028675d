import ChimeDesktop
import ChimeScheduler

/// The sink's next response, or nil when none comes within `timeout` (or the stream ended).
func nextResponse(of sink: LibnotifySink, within timeout: Duration = .seconds(15)) async -> NotificationResponse? {
    await withTaskGroup(of: NotificationResponse?.self) { group in
        group.addTask {
            var responses = sink.responses.makeAsyncIterator()
            return await responses.next()
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
