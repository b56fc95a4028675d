import Foundation

/// A new random item or calendar identifier (a UUID string).
public func newIdentifier() -> String { UUID().uuidString }
