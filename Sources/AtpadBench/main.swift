import AtpadCore
import AtpadDirectory
import AtpadTerminal
import CHeapStats
import AtpadFoldTable
import Foundation

// Release-build benchmarks of the editor core (BENCHMARKS.md):
//   swift run -c release AtpadBench [core] [--repeat N]
// One keystroke through the core (insert, backspace, a pick, an undo) on documents of
// 10 KB, 1 MB and 10 MB holding one mention per 100 characters; median and p99 per size,
// and the memory the editor holds against the document's UTF-8 size.

let arguments = CommandLine.arguments.dropFirst()
let repeatCount = arguments.firstIndex(of: "--repeat").flatMap { Int(arguments[arguments.index(after: $0)]) } ?? 2000

/// A document of about `bytes` UTF-8 bytes: lines of prose with one mention per 100
/// characters.
func makeDocument(bytes: Int) -> MarkedText {
    var doc = MarkedText()
    var text = ""
    text.reserveCapacity(bytes + 200)
    var scalars = 0
    var i = 0
    let words = ["review", "the", "change", "looks", "good", "but", "please", "check", "tests", "again"]
    while text.utf8.count < bytes {
        // 86 characters of prose, a 13-character mention, a newline: 100 per line.
        var prose = ""
        var w = i
        while prose.count < 85 {
            prose += words[w % words.count] + " "
            w += 1
        }
        prose = String(prose.prefix(86))
        text += prose
        scalars += 86
        let m = Mention(trigger: "@", id: "u\(i % 997)", name: "Person \(String(format: "%05d", i % 100_000))", start: scalars)
        text += m.text
        scalars += m.range.count
        doc.mentions.append(m)
        text += "\n"
        scalars += 1
        i += 1
    }
    doc.text = text
    return doc
}

struct Stats {
    var samples: [Double]
    var median: Double { samples.sorted()[samples.count / 2] }
    var p99: Double { samples.sorted()[min(samples.count - 1, Int(Double(samples.count) * 0.99))] }
}

/// "median / p99" of samples, for the tables.
func cell(_ samples: [Double]) -> String {
    let st = Stats(samples: samples)
    return String(format: "%.1f / %.1f", st.median, st.p99)
}

let clock = ContinuousClock()
func micros(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
}

/// Times `body` once, in microseconds.
@inline(never)
func time(_ body: () -> Void) -> Double {
    let start = clock.now
    body()
    return micros(clock.now - start)
}

/// Heap bytes the editor holds for a document of `size` bytes, as a multiple of the
/// document's UTF-8 size (built from a document value that exists before and after).
func memoryRatio(_ doc: MarkedText) -> String {
    let before = atpad_heap_in_use()
    let editor = Editor(doc, cursor: 0)
    let held = Int(atpad_heap_in_use()) - Int(before)
    withExtendedLifetime(editor) {}
    return String(format: "%.2f×", Double(held) / Double(doc.text.utf8.count))
}

// `AtpadBench fold-table`: prints FoldTable.swift, the folds of U+0080 ..< U+2000 that
// differ from the scalar itself, computed the slow way (through Foundation) once, so
// that atpad never pays for it at start-up.
if arguments.first == "fold-table" {
    print(Folding.generatedTableSource())
    exit(0)
}

// `AtpadBench typing N [BYTES]`: N keystrokes typed at the start of a comment (empty, or
// a generated one of BYTES), each followed by its frame, for profiling the echo path
// (`valgrind --tool=callgrind`).
if arguments.first == "typing", let n = arguments.dropFirst().first.flatMap({ Int($0) }) {
    let start = arguments.dropFirst(2).first.flatMap { Int($0) }.map { makeDocument(bytes: $0) } ?? MarkedText()
    var editor = Editor(start, cursor: 0, config: EditorConfig(width: 120, pageRows: 37))
    var view = EditorView(fileName: "bench.md")
    let text = Array("the quick brown fox jumps over the lazy dog. ")
    for i in 0..<n {
        _ = editor.handle(.char(text[i % text.count]))
        if i % 40 == 39 { _ = editor.handle(.enter) }
        let frame = FrameLayout.frame(for: editor, view: view, width: 120, height: 40)
        view.viewport = frame.viewport
    }
    exit(0)
}

/// Compares `screen` with `last` row by row, as the backend does before writing a frame;
/// returns how many rows changed (so the work is not optimised away).
@inline(never)
func changedRows(_ screen: Screen, from last: Screen?) -> Int {
    guard let last, last.width == screen.width, last.height == screen.height else { return screen.height }
    return (0 ..< screen.height).reduce(0) { $0 + (screen.changedColumns(row: $1, from: last) == nil ? 0 : 1) }
}

// `AtpadBench echo [BYTES]`: the echo path with cold caches, as after the idle wait
// between two keystrokes in a terminal: before each key a 64 MB buffer is written through
// (evicting the caches), then the key is handled, its frame laid out whole and compared
// with the last one (what the editor does before writing the difference).
// `AtpadBench echo BYTES markdown` edits it as Markdown (a `github` comment);
// `AtpadBench echo FILE markdown` edits that file's text. With `at-start`, the keys are
// typed as tui_latency types them: the alphabet at the start of the text, Enter after 40.
// With `warm`, nothing is evicted: under `valgrind --tool=cachegrind`, two runs of
// different `--repeat` give the instructions one keystroke takes, a count the machine's
// load does not change.
if arguments.first == "echo" {
    let argument = arguments.dropFirst().first
    let start = argument.flatMap { Int($0) }.map { makeDocument(bytes: $0) }
        ?? argument.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }.map { MarkedText(text: $0) } ?? MarkedText()
    let markdown = arguments.dropFirst(2).first == "markdown"
    let atStart = arguments.contains("at-start")
    let text = Array(atStart ? "abcdefghijklmnopqrstuvwxyz" : "the quick brown fox jumps over the lazy dog. ")
    var evict = [UInt64](repeating: 1, count: arguments.contains("warm") ? 0 : 8 << 20)
    print("one keystroke after evicting the caches, microseconds, median / p99 (\(repeatCount) keys)")
    print("| handle | frame + compare | handle + frame + compare |")
    print("|---|---|---|")
    var editor = Editor(start, cursor: atStart ? 0 : start.text.unicodeScalars.count / 2,
                        config: EditorConfig(implicitThreshold: 0, width: 120, pageRows: 37, format: markdown ? .github : .atpad))
    var view = EditorView(fileName: "bench.md")
    var last = FrameLayout.frame(for: editor, view: view, width: 120, height: 40).screen
    var handle: [Double] = [], layout: [Double] = [], both: [Double] = []
    var changed = 0
    for i in 0 ..< (repeatCount + 20) {
        evict.withUnsafeMutableBufferPointer { b in for k in stride(from: 0, to: b.count, by: 8) { b[k] &+= 1 } }
        var frame: Frame?
        let h = time { _ = editor.handle(.char(text[i % text.count])) }
        let l = time {
            frame = FrameLayout.frame(for: editor, view: view, width: 120, height: 40)
            changed += changedRows(frame!.screen, from: last)
        }
        view.viewport = frame!.viewport
        last = frame!.screen
        if i % 40 == 39 { _ = editor.handle(.enter) }
        if i >= 20 { handle.append(h); layout.append(l); both.append(h + l) }
    }
    print("| \(cell(handle)) | \(cell(layout)) | \(cell(both)) |")
    withExtendedLifetime(changed) {}
    exit(0)
}

// `AtpadBench replace-all`: Alt-R's (a)ll as the app runs it — the matches of a word,
// then one replacement at all of them — in generated comments of growing size (one
// mention per 100 characters, "the" about 1.3 times a line), with the undo and redo of
// it; then a bracketed paste of 1 MB and 5 MB, and opening a 4.6 MB comment. Milliseconds.
if arguments.first == "replace-all" {
    print("replace all of \"the\" with \"a\", milliseconds")
    print("| document | matches | find | replace all | undo | redo |")
    print("|---|---|---|---|---|---|")
    for size in [150_000, 600_000, 4_600_000] {
        var editor = Editor(makeDocument(bytes: size), cursor: 0)
        var matches: [Range<Int>] = []
        let find = time { matches = editor.matches(of: "the") }
        let replace = time { _ = editor.replace(matches, with: "a", group: 1) }
        let replaced = editor.text
        let undo = time { _ = editor.handle(.ctrl("z")) }
        let redo = time { _ = editor.handle(.ctrl("y")) }
        precondition(editor.text == replaced && editor.matches(of: "the").isEmpty, "replace all missed a match")
        print(String(format: "| %.1f MB | %d | %.1f | %.1f | %.1f | %.1f |", Double(size) / 1e6, matches.count,
                     find / 1000, replace / 1000, undo / 1000, redo / 1000))
    }
    print("\nbracketed paste (atpad markup, one mention per 100 characters), milliseconds")
    print("| paste | into an empty comment | into the middle of a 4.6 MB comment |")
    print("|---|---|---|")
    let big = makeDocument(bytes: 4_600_000)
    for size in [1_000_000, 5_000_000] {
        let pasted = AtpadMarkup.encode(makeDocument(bytes: size))
        var empty = Editor()
        let intoEmpty = time { _ = empty.handle(.paste(pasted)) }
        var full = Editor(big, cursor: big.text.unicodeScalars.count / 200 * 100)
        let intoFull = time { _ = full.handle(.paste(pasted)) }
        print(String(format: "| %.0f MB | %.1f | %.1f |", Double(size) / 1e6, intoEmpty / 1000, intoFull / 1000))
    }
    let markup = AtpadMarkup.encode(big)
    var doc = MarkedText()
    let decode = time { doc = AtpadMarkup.decode(markup) }
    let store = time { _ = Editor(doc, cursor: 0) }
    print(String(format: "\nopening a 4.6 MB comment: decode %.1f ms, editor %.1f ms", decode / 1000, store / 1000))
    exit(0)
}

// `AtpadBench open PATH`: the parts of opening a comment file, in milliseconds.
if arguments.first == "open", let path = arguments.dropFirst().first {
    var bytes: [UInt8] = []
    let read = time { bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data()) }
    var text = ""
    let utf8 = time { text = String(decoding: bytes, as: UTF8.self) }
    var doc = MarkedText()
    let decode = time { doc = AtpadMarkup.decode(text) }
    var editor: Editor?
    let store = time { editor = Editor(doc, cursor: 0) }
    let layout = time { _ = FrameLayout.frame(for: editor!, view: EditorView(), width: 120, height: 40) }
    print(String(format: "read %.2f, utf8 %.2f, decode %.2f, storage %.2f, first frame %.2f ms",
                 read / 1000, utf8 / 1000, decode / 1000, store / 1000, layout / 1000))
    exit(0)
}

// `AtpadBench load PATH`: loading a directory file, in milliseconds: the whole load
// (reading, parsing and, on a second thread, indexing), then the index alone rebuilt
// from the entities for comparison, then a first query.
if arguments.first == "load", let path = arguments.dropFirst().first {
    var merged: MergedDirectory?
    let load = time { merged = try? DirectoryLoader.load(paths: [path]) }
    let entities = merged?.entities ?? []
    let build = time { _ = DirectoryIndex(entities) }
    let first = time { _ = merged?.index.rank("jo") }
    print(String(format: "load %.2f ms, index alone %.2f ms, first query %.2f ms, %d entries", load / 1000, build / 1000, first / 1000, entities.count))
    exit(0)
}

// `AtpadBench layout`: one 120×40 frame of a document laid out by FrameLayout, at
// random scroll positions (the viewport jumps there), and the cost of a keystroke plus its
// frame, laid out whole and compared with the last one, when typing at one place.
if arguments.first == "layout" {
    print("one 120×40 frame laid out, microseconds")
    print("| document | frame at a random position median / p99 | keystroke + frame + compare median / p99 |")
    print("|---|---|---|")
    for (label, size) in [("empty", 0), ("10 KB", 10_000), ("1 MB", 1_000_000), ("10 MB", 10_000_000)] {
        let doc = size == 0 ? MarkedText() : makeDocument(bytes: size)
        var editor = Editor(doc, cursor: 0, config: EditorConfig(width: 120, pageRows: 37))
        var jump: [Double] = []
        var typing: [Double] = []
        for round in 0..<(200 + repeatCount) {
            if round == 200 { jump = [] }
            let target = Int.random(in: 0...editor.storage.count)
            _ = editor.click(at: target)
            let view = EditorView(fileName: "bench.md", viewport: Viewport(top: target))
            jump.append(time { _ = FrameLayout.frame(for: editor, view: view, width: 120, height: 40) })
        }
        var view = EditorView(fileName: "bench.md")
        _ = editor.click(at: editor.storage.count / 2)
        var last = FrameLayout.frame(for: editor, view: view, width: 120, height: 40)
        view.viewport = last.viewport
        var changed = 0
        for round in 0..<(200 + repeatCount) {
            if round == 200 { typing = [] }
            typing.append(time {
                _ = editor.handle(.char(round % 7 == 6 ? " " : "e"))
                let frame = FrameLayout.frame(for: editor, view: view, width: 120, height: 40)
                changed += changedRows(frame.screen, from: last.screen)
                view.viewport = frame.viewport
                last = frame
            })
        }
        withExtendedLifetime(changed) {}
        print("| \(label) | \(cell(jump)) | \(cell(typing)) |")
    }
    exit(0)
}

let people = [Candidate(entity: Entity(id: "u1", name: "John Doe", handle: "jdoe"))]
var rng = SystemRandomNumberGenerator()

print("one keystroke through the core, microseconds (\(repeatCount) samples each)")
print("| document | mentions | insert median / p99 | backspace median / p99 | pick median / p99 | undo median / p99 | memory / UTF-8 |")
print("|---|---|---|---|---|---|---|")
let onlySize = arguments.firstIndex(of: "--size").flatMap { Int(arguments[arguments.index(after: $0)]) }
let sizes = [("10 KB", 10_000), ("1 MB", 1_000_000), ("10 MB", 10_000_000)].filter { onlySize == nil || $0.1 == onlySize }
for (label, size) in sizes {
    let doc = makeDocument(bytes: size)
    var editor = Editor(doc, cursor: 0, config: EditorConfig())
    var insert: [Double] = [], backspace: [Double] = [], pick: [Double] = [], undo: [Double] = []
    // The first rounds warm caches and lazily initialised runtime state; they are not kept.
    let warmup = min(500, repeatCount / 4)
    for round in 0..<(warmup + repeatCount) {
        if round == warmup { insert = []; backspace = []; pick = []; undo = [] }
        // A random place at the start of a line's prose (never inside a mention).
        let line = Int.random(in: 0..<(editor.storage.count / 100), using: &rng)
        editor.moveCursor(to: line * 100 + Int.random(in: 1..<80, using: &rng))
        _ = editor.handle(.escape)
        insert.append(time { _ = editor.handle(.char("x")) })
        backspace.append(time { _ = editor.handle(.backspace) })
        _ = editor.handle(.char(" "))
        undo.append(time { _ = editor.handle(.ctrl("z")) })
        // A pick: type `@jo`, answer the query, then time Enter; undo it untimed.
        _ = editor.handle(.char(" "))
        var effects = editor.handle(.char("@"))
        effects += editor.handle(.char("j"))
        effects += editor.handle(.char("o"))
        for case let .query(id, _, _) in effects { _ = editor.receive(.batch(queryID: id, people, isFinal: true)) }
        if let s = editor.search { _ = editor.receive(.batch(queryID: s.queryID, people, isFinal: true)) }
        pick.append(time { _ = editor.handle(.enter) })
        _ = editor.handle(.ctrl("z"))
        _ = editor.handle(.ctrl("z"))
    }
    print("| \(label) | \(doc.mentions.count) | \(cell(insert)) | \(cell(backspace)) | \(cell(pick)) | \(cell(undo)) | \(memoryRatio(doc)) |")
    withExtendedLifetime(editor) {}
}
