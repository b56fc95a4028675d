import ChimeFormat
import Foundation
import Glibc

/// Asking before a change that loses something: on a terminal the question, answered y or n;
/// without one, the change is refused with how to confirm it on the command line.
enum Confirmation {
    /// True when the user said yes (in their language, or `y`/`yes`); throws `refusal` when there
    /// is no terminal to ask on.
    static func ask(_ question: String, refusal: @autoclosure () -> InputError) throws -> Bool {
        guard isatty(STDIN_FILENO) == 1 else { throw refusal() }
        let messages = CLIContext.messages
        FileHandle.standardError.write(Data((messages("{question} [y/N]", ["question": question]) + " ").utf8))
        guard let answer = readLine() else { return false }
        let yes = Set(
            messages("y|yes", context: "confirmation answers").split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } + ["y", "yes"]
        )
        return yes.contains(answer.lowercased().trimmingCharacters(in: .whitespaces))
    }
}
