import AtpadCore
import FoundationEssentials
import Glibc

/// A recovery draft found on disk: the document it holds, whose document it is, when it
/// was written, and whether it was read whole.
public struct Draft: Equatable, Sendable {
    /// The draft file.
    public var path: String
    /// The absolute path of the document it belongs to; nil for an unnamed comment.
    public var originalPath: String?
    /// The draft file's modification time (what "newer than the file" compares).
    public var modified: Date
    /// The time the header says the draft was written, when it could be read.
    public var written: Date?
    /// The process that wrote it, when the header could be read.
    public var writerPID: Int32?
    /// The document: with its mentions when the draft was whole, else as plain text.
    public var document: MarkedText
    /// What was wrong with the file, nil when it was read whole.
    public var damage: DraftDamage?
    /// Where the cursor was when the draft was written (nil: not known, or the draft is
    /// damaged); recovering puts it back.
    public var cursor: Int? = nil
    /// The markup as stored, for a whole draft (to tell a draft equal to its file).
    var markup: [UInt8]?
}
