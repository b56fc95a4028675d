/// `--name value` options of the benchmark executables (no argument parser: they take a few
/// numbers and paths, and stay small).
///
/// ```swift
/// let runs = BenchmarkOptions.integer("--runs", 5)
/// let only = BenchmarkOptions.string("--only")      // nil when not given
/// ```
public enum BenchmarkOptions {
    /// The value after `name`, or nil.
    public static func string(_ name: String, in arguments: [String] = CommandLine.arguments) -> String? {
        guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
        return arguments[i + 1]
    }

    /// The whole number after `name`, or `fallback` when it is missing or not a number.
    public static func integer(_ name: String, _ fallback: Int, in arguments: [String] = CommandLine.arguments) -> Int {
        string(name, in: arguments).flatMap { Int($0) } ?? fallback
    }
}
