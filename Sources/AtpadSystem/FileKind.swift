import FoundationEssentials
import Glibc

/// What a path names, as far as editing it goes (docs/editor.md): only a regular file is opened
/// for writing and only a regular file is ever replaced by a save (``AtomicFile`` refuses
/// the rest for a document). A device, a FIFO or a socket is refused — reading a FIFO
/// would block before the screen is drawn, and renaming a file over `/dev/null` would
/// replace the device.
public enum FileKind: Equatable, Sendable {
    case regular
    case folder
    case fifo
    case device
    case socket
    case other

    /// The kind of file at `path` (symlinks followed), or nil when there is none.
    public static func of(_ path: String) -> FileKind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileKind(mode: info.st_mode)
    }

    public init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .folder
        case S_IFIFO: self = .fifo
        case S_IFCHR, S_IFBLK: self = .device
        case S_IFSOCK: self = .socket
        default: self = .other
        }
    }

    /// How a message names it: `a FIFO`, `a device`.
    public var name: String {
        switch self {
        case .regular: "a regular file"
        case .folder: "a folder"
        case .fifo: "a FIFO"
        case .device: "a device"
        case .socket: "a socket"
        case .other: "not a regular file"
        }
    }

    /// The one line that refuses to edit or replace `path`, which is of this kind; nil for
    /// a regular file (and a folder, which has messages of its own).
    public func refusal(_ path: String, doing what: String) -> String? {
        switch self {
        case .regular, .folder: nil
        case .other: "\(path) is not a regular file: atpad \(what) only regular files"
        default: "\(path) is \(name), not a regular file: atpad \(what) only regular files"
        }
    }
}
