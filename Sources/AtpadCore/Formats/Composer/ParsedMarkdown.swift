import CCmarkGFM
import Synchronization

/// A Markdown comment as cmark-gfm parsed it while it was read, kept for writing it to a
/// chat or tracker (``ComposedMarkdown``): converting a Markdown file to Matrix's HTML,
/// Jira's ADF or Slack's mrkdwn then parses it once, not twice (docs/formats.md, "What
/// each service receives"; BENCHMARKS.md).
///
/// It holds the text that was parsed, the byte ranges of the mentions read from it, and
/// the tree with its parser and its text nodes outside links. One writer uses the tree
/// (writing changes it); the tree is freed with this object.
public final class ParsedMarkdown: Hashable, @unchecked Sendable {
    // Unchecked: the tree's pointers are reached only through `use(_:)`, by the one caller
    // the mutex lets in.

    /// A text node outside links, and the bytes of the text it was read from.
    struct TextNode {
        let pointer: OpaquePointer
        let range: Range<Int>
        /// Whether the literal is those bytes as they are (no escape or reference in them).
        let verbatim: Bool
    }

    /// The tree, its parser and its text nodes in order. Unchecked: it passes from the
    /// reader to the one writer that takes it, never to two threads at once.
    struct Tree: @unchecked Sendable {
        let parser: OpaquePointer
        let root: OpaquePointer
        let textNodes: [TextNode]
        /// Whether the tree holds raw HTML (which a writer shows as text).
        let holdsHTML: Bool

        func free() {
            cmark_node_free(root)
            cmark_parser_free(parser)
        }
    }

    /// The text parsed (UTF-8).
    let text: [UInt8]
    /// The byte ranges of the mentions read from `text`, in order.
    let mentions: [Range<Int>]
    private let tree: Tree
    private let used = Mutex(false)

    init(text: [UInt8], mentions: [Range<Int>], tree: Tree) {
        self.text = text
        self.mentions = mentions
        self.tree = tree
    }

    deinit {
        tree.free()
    }

    /// Calls `body` with the tree the first time it is asked for; nil after that.
    func use<T>(_ body: (Tree) -> T) -> T? {
        let first = used.withLock { used in
            defer { used = true }
            return !used
        }
        return first ? body(tree) : nil
    }

    public static func == (a: ParsedMarkdown, b: ParsedMarkdown) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
