extension AsyncStream where Element: Sendable {
    /// The first element the stream yields within `seconds`; `ifEnded` when the stream finishes
    /// first, nil when the time runs out. (`chime where` waits for a position this way.)
    ///
    /// ```swift
    /// let update = await provider.updates.first(within: 30, ifEnded: .unavailable("no position"))
    /// ```
    func first(within seconds: Double, ifEnded: Element? = nil) async -> Element? {
        await withTaskGroup(of: Element?.self) { group in
            group.addTask {
                for await element in self { return element }
                return ifEnded
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
