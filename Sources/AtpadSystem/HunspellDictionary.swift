import CHunspell
import Glibc
import Synchronization

/// One Hunspell dictionary (a language's `.aff` and `.dic` files), found by the language's
/// name (`en_US`) in the folders dictionaries are installed in (docs/spelling.md,
/// "Dictionaries"). It says whether a word is spelt right, suggests others, and takes
/// words added while atpad runs.
///
/// A Hunspell handle is not safe on two threads at once, so every call goes through one
/// `Mutex`; the dictionary can then be shared between threads.
public final class HunspellDictionary: Sendable {
    /// The language, as its files are named: `en_US`, `de_DE`.
    public let language: String
    /// The `.dic` file it was read from.
    public let path: String
    private let handle: Mutex<OpaquePointer>
    /// Whether the dictionary's words are in ISO 8859-1 rather than UTF-8 (its `SET`).
    private let latin1: Bool
    /// Its `.aff` file's `TRY` and `REP` lines, in its encoding: the letters Hunspell adds
    /// and changes to find suggestions, and the misspellings it names.
    public let suggestionLines: [String]

    /// The folders searched for dictionaries, first first: `$DICPATH` (colon-separated, as
    /// Hunspell's own command reads it), `$XDG_DATA_HOME/hunspell` (or
    /// `~/.local/share/hunspell`), then the system's.
    public static func folders(environment: [String: String]) -> [String] {
        var folders: [String] = []
        if let list = environment["DICPATH"] {
            folders += list.split(separator: ":").map(String.init)
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            folders.append(xdg + "/hunspell")
        } else if let home = environment["HOME"], !home.isEmpty {
            folders.append(home + "/.local/share/hunspell")
        }
        return folders + ["/usr/local/share/hunspell", "/usr/share/hunspell", "/usr/share/myspell/dicts",
                          "/usr/share/myspell"]
    }

    /// Opens the dictionary of `language` from the first of `folders` that holds both its
    /// files; nil when none does (or the language's name could make a path elsewhere).
    public convenience init?(language: String, folders: [String]) {
        guard let files = Self.files(language: language, folders: folders) else { return nil }
        self.init(language: language, aff: files.aff, dic: files.dic)
    }

    /// The `.aff` and `.dic` files of `language` in the first of `folders` that holds both,
    /// readable; nil when none does (or the language's name could make a path elsewhere).
    public static func files(language: String, folders: [String]) -> (aff: String, dic: String)? {
        guard !language.isEmpty, !language.contains("/"), !language.hasPrefix(".") else { return nil }
        for folder in folders {
            let base = folder + "/" + language
            if access(base + ".aff", R_OK) == 0, access(base + ".dic", R_OK) == 0 { return (base + ".aff", base + ".dic") }
        }
        return nil
    }

    /// Opens the dictionary made of `aff` and `dic`, which must be readable (Hunspell makes
    /// an empty dictionary of missing files, and says nothing).
    public init(language: String, aff: String, dic: String) {
        let created = Hunspell_create(aff, dic)!
        self.language = language
        self.path = dic
        let encoding = Hunspell_get_dic_encoding(created).map { String(cString: $0).uppercased() } ?? "UTF-8"
        let latin1 = encoding == "ISO8859-1" || encoding == "ISO-8859-1"
        self.latin1 = latin1
        self.suggestionLines = Self.suggestionLines(aff: aff, latin1: latin1)
        self.handle = Mutex(created)
    }

    /// The `TRY` and `REP` lines of the affix file at `path`, read in its encoding.
    private static func suggestionLines(aff path: String, latin1: Bool) -> [String] {
        guard let bytes = try? FileContents.read(path, regularOnly: true) else { return [] }
        return bytes.split(separator: UInt8(ascii: "\n")).filter {
            $0.starts(with: Array("TRY".utf8)) || $0.starts(with: Array("REP".utf8))
        }.map { line in
            let line = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            return latin1 ? String(String.UnicodeScalarView(line.map { Unicode.Scalar($0) }))
                          : String(decoding: line, as: UTF8.self)
        }
    }

    deinit {
        handle.withLock { Hunspell_destroy($0) }
    }

    /// Whether `word` is spelt right in this language. A word this dictionary's encoding
    /// cannot hold is not one of its words.
    public func check(_ word: String) -> Bool {
        guard let bytes = encoded(word) else { return false }
        return handle.withLock { h in bytes.withUnsafeBufferPointer { Hunspell_spell(h, $0.baseAddress) != 0 } }
    }

    /// Whether the word whose UTF-8 bytes `word` points to, ended by a NUL, is spelt right:
    /// ``check(_:)`` without making a string, for the hundreds of candidates a suggestion
    /// tries (`NearbyWords`).
    public func check(utf8 word: UnsafePointer<CChar>) -> Bool {
        guard !latin1 else { return check(String(cString: word)) }
        // Copied: the lock's closure may not hold the caller's pointer (a copy of a few
        // bytes against the lookup's microseconds).
        let bytes = Array(UnsafeBufferPointer(start: word, count: strlen(word) + 1))
        return handle.withLock { h in bytes.withUnsafeBufferPointer { Hunspell_spell(h, $0.baseAddress) != 0 } }
    }

    /// Hunspell's suggestions for `word`, best first.
    public func suggestions(_ word: String) -> [String] {
        guard let bytes = encoded(word) else { return [] }
        return handle.withLock { h in
            var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            let count = bytes.withUnsafeBufferPointer { Hunspell_suggest(h, &list, $0.baseAddress) }
            defer { Hunspell_free_list(h, &list, count) }
            guard count > 0, let list else { return [] }
            return (0 ..< Int(count)).compactMap { i in list[i].map { decoded($0) } }
        }
    }

    /// Adds `word` for as long as this dictionary is open (the personal word list, a word
    /// added from the editor).
    public func add(_ word: String) {
        guard let bytes = encoded(word) else { return }
        _ = handle.withLock { h in bytes.withUnsafeBufferPointer { Hunspell_add(h, $0.baseAddress) } }
    }

    /// `word` in the dictionary's encoding, NUL-terminated; nil when it cannot be written
    /// in it (or holds a NUL).
    private func encoded(_ word: String) -> [CChar]? {
        guard !word.unicodeScalars.contains("\0") else { return nil }
        if latin1 {
            var bytes: [CChar] = []
            for u in word.unicodeScalars {
                guard u.value < 0x100 else { return nil }
                bytes.append(CChar(bitPattern: UInt8(u.value)))
            }
            return bytes + [0]
        }
        return Array(word.utf8CString)
    }

    /// A word Hunspell gave back, from the dictionary's encoding.
    private func decoded(_ pointer: UnsafeMutablePointer<CChar>) -> String {
        guard latin1 else { return String(cString: pointer) }
        let length = strlen(pointer)
        return String(String.UnicodeScalarView((0 ..< length).map {
            Unicode.Scalar(UInt8(bitPattern: pointer[$0]))
        }))
    }
}
