import Glibc

/// Why a recovery draft could not be written or removed, as one line the message line can
/// show (editing goes on without drafts).
public struct DraftError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(message: String) {
        self.message = message
    }

    /// `what` followed by the reason the system gave for the last failed call.
    static func system(_ what: String, errno code: Int32 = errno) -> DraftError {
        DraftError(message: "\(what): \(String(cString: strerror(code)))")
    }
}
