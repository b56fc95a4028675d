import ChimeFormat
import Foundation
import Glibc

/// Asking before a change that loses something: on a terminal the question, answered y or n;
/// without one, the change is refused with how to confirm it on the command line.
enum Confirmation {
    /// True when the user said yes; throws `refusal` when there is no terminal to ask on.
    static func ask(_ question: String, refusal: @autoclosure () -> String) throws -> Bool {
        guard isatty(STDIN_FILENO) == 1 else { throw InputError(refusal()) }
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.lowercased().trimmingCharacters(in: .whitespaces))
    }
}
