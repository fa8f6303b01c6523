/// What a frame shows besides the document: the title, the message line, whether the F1
/// key list is up, and the scroll position. The app owns it and keeps `viewport` from
/// each `Frame` it draws.
public struct EditorView: Hashable, Sendable {
    /// The file's name as shown in the title, or nil for a comment not yet saved anywhere.
    public var fileName: String?
    /// Whether the document differs from what was last saved.
    public var isModified: Bool
    /// The message line: a prompt, an error, a notice ("" for none).
    public var message: String
    /// Whether the F1 list of keys covers the text area.
    public var showsHelp: Bool
    public var viewport: Viewport
    /// The triggers whose directory is still loading: their chooser says so instead of
    /// "searching…".
    public var loadingDirectories: Set<Unicode.Scalar>

    public init(fileName: String? = nil, isModified: Bool = false, message: String = "",
                showsHelp: Bool = false, viewport: Viewport = Viewport(),
                loadingDirectories: Set<Unicode.Scalar> = []) {
        self.loadingDirectories = loadingDirectories
        self.fileName = fileName
        self.isModified = isModified
        self.message = message
        self.showsHelp = showsHelp
        self.viewport = viewport
    }
}
