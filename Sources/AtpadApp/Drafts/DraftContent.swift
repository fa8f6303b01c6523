import AtpadCore

/// A document value the draft writer can take on the loop's thread and encode on its own
/// queue: copying it must be cheap (the loop pays for the copy), encoding may not be.
public protocol DraftContent: Sendable {
    /// The document as a draft stores it.
    func draftBody() -> DraftBody
}

/// A document as a draft stores it: atpad markup, plus what markup does not carry about
/// its tokens (kept constructs and the text each token was read from, `TokenSources`).
public struct DraftBody: Sendable, Equatable {
    public var markup: String
    /// The `TokenSources` line, nil when no token has a source.
    public var tokens: String?
    /// Where the cursor was (a scalar offset into the document), so that recovering puts
    /// it back where the person was typing; nil when not known.
    public var cursor: Int?

    public init(markup: String, tokens: String? = nil, cursor: Int? = nil) {
        self.markup = markup
        self.tokens = tokens
        self.cursor = cursor
    }

    public init(_ doc: MarkedText, cursor: Int? = nil) {
        self.init(markup: AtpadMarkup.encode(doc), tokens: TokenSources.line(doc), cursor: cursor)
    }

    /// The document this body holds: the markup read, the tokens put back.
    public var document: MarkedText {
        let doc = AtpadMarkup.decode(markup)
        return tokens.map { TokenSources.apply($0, to: doc) } ?? doc
    }
}

extension TextStorage: DraftContent {
    /// Copy-on-write chunks make the copy O(1); walking them happens on the writer's queue.
    public func draftBody() -> DraftBody { DraftBody(marked) }
}

extension MarkedText: DraftContent {
    public func draftBody() -> DraftBody { DraftBody(self) }
}

/// What the loop hands the draft writer: the document (a copy-on-write value, O(1)) and
/// the cursor, which the draft keeps so that recovering puts it back.
public struct DraftSnapshot: DraftContent {
    public var storage: TextStorage
    public var cursor: Int

    public init(_ editor: Editor) {
        storage = editor.storage
        cursor = editor.cursor
    }

    public func draftBody() -> DraftBody { DraftBody(storage.marked, cursor: cursor) }
}
