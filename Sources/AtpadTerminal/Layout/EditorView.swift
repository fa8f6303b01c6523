/// What a frame shows besides the document: the title, the message line, the prompt, the
/// find matches, an overlay (F1 keys, F2 preview), and the scroll position. The app owns it and keeps `viewport` from
/// each `Frame` it draws.
public struct EditorView: Hashable, Sendable {
    /// The file's name as shown in the title, or nil for a comment not yet saved anywhere.
    public var fileName: String?
    /// Whether the document differs from what was last saved.
    public var isModified: Bool
    /// The message line: a prompt, an error, a notice ("" for none).
    public var message: String
    /// What covers the text area (the F1 key list, the F2 preview), if anything.
    public var overlay: Overlay?
    /// The prompt or question on the bottom row (over the help bar), if one is open.
    public var prompt: PromptLine?
    /// The matches of the find prompt (document ranges, role `match`) and which of them
    /// is the current one (role `match.current`).
    public var matches: [Range<Int>]
    public var currentMatch: Int?
    /// The file can't be written by this person: the title says `[read-only]`.
    public var isReadOnly: Bool
    public var viewport: Viewport
    /// The triggers whose directory is still loading: their chooser says so instead of
    /// "searching…".
    public var loadingDirectories: Set<Unicode.Scalar>

    public init(fileName: String? = nil, isModified: Bool = false, message: String = "",
                overlay: Overlay? = nil, prompt: PromptLine? = nil, matches: [Range<Int>] = [],
                currentMatch: Int? = nil, isReadOnly: Bool = false, viewport: Viewport = Viewport(),
                loadingDirectories: Set<Unicode.Scalar> = []) {
        self.loadingDirectories = loadingDirectories
        self.fileName = fileName
        self.isModified = isModified
        self.message = message
        self.overlay = overlay
        self.prompt = prompt
        self.matches = matches
        self.currentMatch = currentMatch
        self.isReadOnly = isReadOnly
        self.viewport = viewport
    }
}
