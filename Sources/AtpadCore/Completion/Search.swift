/// A search in progress: where its trigger is, what it asks, and what has come back.
///
/// The state machine (ARCHITECTURE.md) is: no search → explicit or implicit search →
/// (pick | end | dismiss) → no search. Results arrive in batches for `queryID` only.
public struct Search: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Started by typing a trigger (or Ctrl-Space); the chooser owns navigation keys.
        case explicit
        /// Started after N word characters; the chooser never steals keys.
        case implicit
    }

    public var kind: Kind
    /// The directory trigger this search asks (`@` for implicit searches).
    public var trigger: Unicode.Scalar
    /// Explicit: the position of the trigger character. Implicit: the start of the word.
    public var start: Int
    /// The query text as it is in the document.
    public var query: String
    /// The id of the current query; batches for any other id are stale.
    public var queryID: Int
    /// Whether the query has been sent (it waits while another request is in flight).
    public var sent: Bool
    /// Results so far, deduplicated by entity id, in arrival order. Until the first answer
    /// to a new query arrives these are still the previous query's (`showsPrevious`).
    public var items: [Candidate] = []
    /// The items are the previous query's, kept on screen until the new query answers so
    /// the chooser does not blink (empty, then full again) on every keystroke.
    public var showsPrevious: Bool = false
    /// The highlighted result.
    public var selected: Int = 0
    /// The first visible row of the chooser.
    public var scrollTop: Int = 0
    /// The source marked its last batch.
    public var isFinal: Bool = false
    /// The source failed; the chooser shows this as an error row.
    public var error: String? = nil
    /// Implicit and quiet searches: Ctrl-N/Ctrl-P was pressed, so Enter now picks.
    public var navigated: Bool = false
    /// An explicit search of an insert-completion trigger (`:`): it asks nothing before
    /// two characters, shows no "no matches" row, and keeps the implicit keys.
    public var quiet: Bool = false
    /// Re-targeting (Ctrl-Space on a selected mention): the mention a pick replaces. The
    /// query is then kept here and edited in the chooser, not in the text.
    public var retarget: Mention? = nil
    /// Re-targeting: the query is still the mention's name as it was pre-filled, selected,
    /// so the first character typed replaces it (Backspace keeps it for editing).
    public var queryIsSelected: Bool = false
    /// A search right after a person trailer's key (`Signed-off-by: `) in a commit
    /// message: each result inserts `Name <email>` (``PersonTrailers``).
    public var personTrailer: Bool = false
    /// A correction (F7, docs/spelling.md): the misspelt word a pick replaces, and the
    /// word; the items are its suggestions, then the rows that add the word to the
    /// personal list and ignore it in this document.
    public var correction: Correction? = nil

    /// The word a correction chooser is for, and where it is.
    public struct Correction: Sendable, Equatable {
        public var range: Range<Int>
        public var word: String
    }

    /// Whether the chooser owns only the implicit keys (Tab, Ctrl-N/Ctrl-P, Esc).
    public var hasImplicitKeys: Bool { kind == .implicit || quiet }

    /// Whether the chooser is drawn (an implicit or quiet search shows only non-empty results).
    public var isOpen: Bool { hasImplicitKeys ? !items.isEmpty : true }
    /// Whether more results may still come ("searching…").
    public var isLoading: Bool { !isFinal && error == nil }
    /// Clears the previous query's results when the first answer to the current one comes.
    mutating func dropPreviousResults() {
        guard showsPrevious else { return }
        items = []
        selected = 0
        scrollTop = 0
        showsPrevious = false
    }

    /// Position of the first character of the query in the document.
    public var queryStart: Int { kind == .explicit ? start + 1 : start }

    /// The search's query shown in the chooser's first row (re-targeting only).
    public var editedQuery: String? { retarget == nil ? nil : query }
}

/// What a source sends back for a query.
public enum CompletionEvent: Sendable, Equatable {
    /// More results; `isFinal` marks the last batch.
    case batch(queryID: Int, [Candidate], isFinal: Bool)
    /// The source failed (exit status, timeout, malformed output).
    case failed(queryID: Int, message: String)
    /// The work behind a query stopped (after its final batch, a failure or a cancel).
    case ended(queryID: Int)
}

/// Work the editor asks the app to do: the core itself never touches a process, socket,
/// file or clock.
public enum Effect: Sendable, Equatable {
    /// Ask the directory routed to `trigger` for `query`; answer with `CompletionEvent`s.
    case query(id: Int, trigger: Unicode.Scalar, query: String)
    /// Stop the work behind a query and report `.ended` when it has stopped.
    case cancel(id: Int)
    /// A person picked `entity` for `trigger` (frecency is updated from this).
    case picked(Entity, trigger: Unicode.Scalar)
    /// The document changed (drafts are written from this).
    case documentChanged
    /// Copy or cut took this text, as shown (mentions as their text), for the terminal's
    /// clipboard (OSC 52).
    case copied(String)
    /// A line for the message line: something the person should know about what a key
    /// did (a pick written as a name, because the comment's service cannot notify them).
    case notice(String)
    /// The suggestions for `word` are wanted (F7, docs/spelling.md): answer with a
    /// final `.batch` for `queryID`, one candidate a suggestion, best first.
    case suggest(queryID: Int, word: String)
    /// "Add WORD to my words": append `word` to the personal word list.
    case addWord(String)
}
