import CGeoclue

extension GLibMainLoopThread {
    /// Queues `work` on the loop thread and returns at once, where ``perform(_:)`` waits for the
    /// result. Work queued before ``stop()`` runs (the thread drains its queue before it ends);
    /// callers keep their own gate so that nothing is queued after it.
    ///
    /// ```swift
    /// loopThread.post { session.apply(request) }   // the caller's thread never waits on GLib
    /// ```
    func post(_ work: @escaping () -> Void) {
        g_main_context_invoke_full(
            mainContext, G_PRIORITY_DEFAULT,
            { userData in
                Unmanaged<PostedWork>.fromOpaque(userData!).takeUnretainedValue().work()
                return 0  // G_SOURCE_REMOVE
            }, Unmanaged.passRetained(PostedWork(work)).toOpaque(),
            { userData in
                Unmanaged<PostedWork>.fromOpaque(userData!).release()
            })
    }
}

/// One closure handed to ``GLibMainLoopThread/post(_:)``, kept alive until GLib drops its source.
private final class PostedWork {
    let work: () -> Void
    init(_ work: @escaping () -> Void) { self.work = work }
}
