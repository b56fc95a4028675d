import ChimeScheduler
import Foundation
import Glibc

/// Opens a URL with the desktop's preferred application: runs `xdg-open URL`.
///
/// No shell is involved: the program is found on `PATH` by `posix_spawnp` and gets the URL as its
/// one argument, so no character of the URL is interpreted. Its standard input and output are
/// `/dev/null` (the daemon's standard output may carry JSON lines); standard error is the
/// daemon's (the journal). A background thread waits for it to exit, so no zombie is left and the
/// scheduler never waits for the browser.
///
/// ```swift
/// try XDGOpener().open("https://example.org/meeting")
/// ```
public struct XDGOpener: URLOpener {
    /// The program to run: `xdg-open`, or a stand-in in tests.
    public var command: String

    public init(command: String = "xdg-open") { self.command = command }

    public func open(_ url: String) throws(OpenError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(command), strdup(url), nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, command, &actions, nil, argv, environ)
        guard status == 0 else {
            throw OpenError("cannot run \(command): \(String(cString: strerror(status)))")
        }
        let child = pid
        Thread.detachNewThread {
            var exitStatus: Int32 = 0
            while waitpid(child, &exitStatus, 0) < 0 && errno == EINTR {}
        }
    }
}
