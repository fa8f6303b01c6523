import AtpadCore
import AtpadSystem
import FoundationEssentials
import Synchronization

/// The editor's spelling, off the loop's thread (docs/spelling.md, "In the editor"): the
/// dictionaries are opened, and each version of the document checked, on a
/// ``BackgroundQueue`` of its own, so that no key and no first frame waits for Hunspell.
/// The words found come back through the mailbox as `.spellingChecked`, for the version
/// of the text they were found in: first those of the request's regions (the words edited
/// since the last check and the rows in view), then those of the whole text. Only the
/// newest text waits to be checked: a check asked for while another runs replaces the one
/// still waiting, and stops a check of a whole text.
final class SpellChecker: Sendable {
    /// What to check with: the languages, where their dictionaries may be, the
    /// environment (for the personal list), and the people whose names are known words.
    struct Settings: Sendable {
        var languages: [String]
        var folders: [String]
        var environment: [String: String]
        var entities: [Entity]
    }

    /// One version of the document to check: `regions` first when there are (the words
    /// edited since the last check and the rows in view, ``Editor/spellingRegions(visible:)``),
    /// then the whole text.
    struct Request: Sendable {
        var storage: TextStorage
        var version: Int
        var format: DocumentFormat
        var git: GitFile?
        var regions: [Range<Int>]? = nil
    }

    /// The dictionaries and known words, once opened (on the queue's thread).
    private struct Opened: Sendable {
        var speller: Dictionaries?
        var known: KnownWords
        var listPath: String?
    }

    private let settings: Settings
    private let mailbox: Mailbox
    private let queue = BackgroundQueue(name: "atpad spelling")
    private let opened = Mutex<Opened?>(nil)
    /// The names of directories that loaded after start (``know(_:)``).
    private let lateNames = Mutex(KnownWords())
    /// The newest request not yet taken by a job, and whether a job is queued or running.
    private let work = Mutex<(waiting: Request?, busy: Bool)>((nil, false))
    /// The text was edited after the request being checked was made: a check of its whole
    /// text stops (the edited words and the view are checked first at the next pause).
    private let edited = Mutex(false)
    /// How long the last check that a pause waits for took: of the regions when there were,
    /// else of the whole text (the runtime waits for a longer pause in typing when long).
    private let lastDuration = Mutex<Duration>(.zero)

    init(_ settings: Settings, mailbox: Mailbox) {
        self.settings = settings
        self.mailbox = mailbox
    }

    /// How long the last check a pause waits for took (see `lastDuration`).
    var lastCheckDuration: Duration { lastDuration.withLock { $0 } }

    /// Checks `request`'s text in the background; returns at once.
    func check(_ request: Request) {
        let start = work.withLock { work -> Bool in
            work.waiting = request
            defer { work.busy = true }
            return !work.busy
        }
        guard start else { return }
        queue.async { self.drain() }
    }

    /// The text was edited: a check of a whole text under way stops, so that it does not
    /// take the second core from typing; the next request starts again from the regions.
    func textEdited() {
        edited.withLock { $0 = true }
    }

    /// The suggestions for `word`, best first (F7; docs/spelling.md, "Suggestions"). Opens the dictionaries first
    /// if no check has yet.
    func suggestions(for word: String) -> [String] {
        open().speller?.suggestions(for: word) ?? []
    }

    /// The people of a directory that finished loading after spelling started (the
    /// sample directory, a large file): their names are known words from the next check
    /// on, which the queue runs after this.
    ///
    /// Taken at once, not queued: a check already running takes the next request in the
    /// same job, ahead of anything queued after it.
    func know(_ entities: [Entity]) {
        let names = KnownWords(entities: entities)
        lateNames.withLock { $0.formUnion(names) }
        opened.withLock { $0?.known.formUnion(names) }
    }

    /// "Add WORD to my words": a known word from now on, appended to the personal list in
    /// the background (one atomic write); a failure comes back as a notice.
    func add(_ word: String) {
        opened.withLock { $0?.known.add(word) }
        queue.async {
            let done = self.open()
            self.opened.withLock { $0?.known.add(word) }  // opened just now, without it
            guard let path = done.listPath else {
                self.mailbox.post(.notice("\(word) is known until atpad quits: no home folder for the word list"))
                return
            }
            do {
                try SpellingSetup.addPersonalWord(word, to: path)
                self.mailbox.post(.notice("Added \(word) to \(path)"))
            } catch {
                self.mailbox.post(.notice("\(word) is known until atpad quits: \(path) not written (\(error))"))
            }
        }
    }

    /// Runs the waiting requests until none is left.
    private func drain() {
        while let request = work.withLock({ work -> Request? in
            guard let next = work.waiting else {
                work.busy = false
                return nil
            }
            work.waiting = nil
            edited.withLock { $0 = false }
            return next
        }) {
            let done = open()
            guard let speller = done.speller else {
                mailbox.post(.spellingChecked(version: request.version, words: []))
                continue
            }
            if let regions = request.regions {
                let start = ContinuousClock.now
                let found = regions.flatMap {
                    SpellMarks.find(in: $0, of: request.storage, format: request.format, speller: speller, known: done.known)
                }
                // What the next pause waits for is this check: the whole one after it stops
                // at the next edit.
                let took = start.duration(to: .now)
                lastDuration.withLock { $0 = took }
                mailbox.post(.spellingChecked(version: request.version, words: found, regions: regions))
                // The whole text follows, unless a newer one waits: its own regions go first.
                if work.withLock({ $0.waiting != nil }) { continue }
            }
            let start = ContinuousClock.now
            // A newer text, or an edit (its text follows at the next pause), stops the check
            // of the whole of this one: the newer text's regions go first.
            let newer = { self.work.withLock { $0.waiting != nil } || self.edited.withLock { $0 } }
            let found = Misspelling.find(in: request.storage.marked, format: request.format, git: request.git,
                                         speller: speller, known: done.known, stop: newer)
            if newer() { continue }
            if request.regions == nil {
                let took = start.duration(to: .now)
                lastDuration.withLock { $0 = took }
            }
            // In the core's shape here, off the loop's thread: taking them is then a move.
            mailbox.post(.spellingChecked(version: request.version,
                                          words: found.map { SpellMarks.Mark(range: $0.range, word: $0.word) }))
        }
    }

    /// The dictionaries and known words, opened on first use; what could not be found is
    /// said once on the message line.
    private func open() -> Opened {
        opened.withLock { opened in
            if let opened { return opened }
            let setup = SpellingSetup(languages: settings.languages, folders: settings.folders,
                                      environment: settings.environment)
            if !setup.notes.isEmpty { mailbox.post(.notice(setup.notes.joined(separator: "; "))) }
            var known = KnownWords(entities: settings.entities, list: setup.personalWords)
            known.formUnion(lateNames.withLock { $0 })
            let done = Opened(speller: setup.speller,
                              known: known,
                              listPath: SpellingSetup.personalListPath(environment: settings.environment))
            opened = done
            return done
        }
    }
}
