import ChimeScheduler
import Foundation
import Glibc
import Logging

/// Runs an alarm's allowed command (``AlarmCommands``): no shell, a time limit, output to the log.
///
/// The program (an absolute path) is started with `posix_spawn` and its argument vector as the
/// user wrote it in `config.toml`, so nothing in an item's title or the environment is ever
/// interpreted. It inherits the daemon's environment plus the request's `CHIME_*` variables,
/// reads `/dev/null`, runs in a process group of its own (a time-out stops its children too) and
/// writes standard output and error into one pipe whose lines go to the daemon's log (the journal
/// under systemd). A thread of its own waits for it, so the scheduler never does. A command that
/// leaves a child behind holding its output open counts as running until that child ends, or
/// until the time limit stops the whole group.
///
/// ```swift
/// let runner = SpawnedCommandRunner(logger: logger)
/// try runner.start(CommandRequest(name: "backup", argv: ["/usr/bin/rsync", "-a", "/home/me/", "/mnt/b/"],
///                                 environment: ["CHIME_TITLE": "Backup"], timeoutSeconds: 60))
/// ```
public final class SpawnedCommandRunner: CommandRunner {
    /// How a command ended.
    public enum Outcome: Hashable, Sendable {
        case exited(Int32)
        case signalled(Int32)
        /// It ran past its time limit and was stopped (SIGTERM, then SIGKILL).
        case timedOut
    }

    private let logger: Logger
    private let onFinish: (@Sendable (CommandRequest, Outcome) -> Void)?
    /// Output beyond this many bytes per run is not logged (a runaway command must not flood the journal).
    public static let outputLimit = 64 * 1024
    /// Between SIGTERM and SIGKILL after a time-out.
    public static let killGraceSeconds = 2.0

    /// - Parameter onFinish: called on the runner's thread when a command has ended (for tests).
    public init(logger: Logger, onFinish: (@Sendable (CommandRequest, Outcome) -> Void)? = nil) {
        self.logger = logger
        self.onFinish = onFinish
    }

    public func start(_ request: CommandRequest) throws(CommandError) {
        guard let program = request.argv.first, program.hasPrefix("/") else {
            throw CommandError("the program must be an absolute path, not \(request.argv.first ?? "nothing")")
        }
        var fds: [Int32] = [0, 0]
        // Glibc does not export pipe2 to Swift, so close-on-exec is set just after: the command's
        // own copies (dup2 in its spawn) stay open, and later children of the daemon get none.
        guard pipe(&fds) == 0 else { throw CommandError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, STDERR_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        // The daemon blocks or handles SIGTERM/SIGINT for its graceful shutdown; the command gets defaults.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        var environment = ProcessInfo.processInfo.environment
        for (key, value) in request.environment { environment[key] = value }
        let argv = request.argv.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        close(writeEnd)
        guard status == 0 else {
            close(readEnd)
            throw CommandError("cannot run \(program): \(String(cString: strerror(status)))")
        }
        let child = pid
        let (logger, onFinish) = (self.logger, self.onFinish)
        Thread.detachNewThread {
            let outcome = Self.supervise(child, output: readEnd, request: request, logger: logger)
            close(readEnd)
            switch outcome {
            case .exited(0): logger.info("the alarm's command finished", metadata: ["command": "\(request.name)", "status": "0"])
            case .exited(let code):
                logger.warning("the alarm's command failed", metadata: ["command": "\(request.name)", "status": "\(code)"])
            case .signalled(let signal):
                logger.warning("the alarm's command was killed", metadata: ["command": "\(request.name)", "signal": "\(signal)"])
            case .timedOut:
                logger.warning(
                    "the alarm's command ran past its time limit and was stopped",
                    metadata: ["command": "\(request.name)", "timeout_s": "\(request.timeoutSeconds)"])
            }
            onFinish?(request, outcome)
        }
    }

    /// Reads the command's output into the log until it has exited and its pipe is closed, or its time is up.
    private static func supervise(_ child: pid_t, output fd: Int32, request: CommandRequest, logger: Logger) -> Outcome {
        let started = Date()
        let deadline = started.addingTimeInterval(TimeInterval(request.timeoutSeconds))
        var pending = [UInt8]()
        var logged = 0
        var exitStatus: Int32?
        var pipeOpen = true
        var terminatedAt: Date?
        func logLine(_ bytes: ArraySlice<UInt8>) {
            guard logged < outputLimit else { return }
            logged += bytes.count
            let line = String(decoding: bytes, as: UTF8.self)
            logger.info("command output", metadata: ["command": "\(request.name)", "line": "\(line)"])
            if logged >= outputLimit {
                logger.notice(
                    "the alarm's command writes more than \(outputLimit) bytes; the rest is not logged",
                    metadata: ["command": "\(request.name)"])
            }
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if exitStatus == nil {
                var status: Int32 = 0
                let waited = waitpid(child, &status, WNOHANG)
                if waited == child { exitStatus = status }
            }
            if exitStatus != nil && !pipeOpen { break }
            let now = Date()
            if terminatedAt == nil && now >= deadline {
                kill(-child, SIGTERM)
                terminatedAt = now
            } else if let at = terminatedAt, now.timeIntervalSince(at) >= killGraceSeconds {
                kill(-child, SIGKILL)
                if exitStatus == nil {
                    var status: Int32 = 0
                    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
                }
                break
            }
            guard pipeOpen else {
                usleep(50_000)  // exited children of the command still run; wait for the exit or the deadline
                continue
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 100)
            guard ready > 0 else { continue }
            let count = read(fd, &buffer, buffer.count)
            if count > 0 {
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: 10) {
                    logLine(pending[..<newline])
                    pending.removeSubrange(...newline)
                }
                if pending.count > 4096 { logLine(pending[...]); pending = [] }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                pipeOpen = false
            }
        }
        if !pending.isEmpty { logLine(pending[...]) }
        if terminatedAt != nil { return .timedOut }
        guard let status = exitStatus else { return .timedOut }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
        return .signalled(status & 0x7f)
    }
}
