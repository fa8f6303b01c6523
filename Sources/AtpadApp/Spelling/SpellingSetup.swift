import AtpadCore
import AtpadSystem
import FoundationEssentials

/// What spelling checks with, from the config, the command line and the environment
/// (docs/spelling.md): the languages' dictionaries, opened, and the personal word list. A
/// language with no dictionary installed is said in one line (``notes``) and the others
/// go on; with none at all nothing is checked.
struct SpellingSetup {
    /// The languages asked for, in order; empty when spelling is off.
    var languages: [String]
    /// The dictionaries found, as one speller; nil when none was (or spelling is off).
    var speller: Dictionaries?
    /// The personal word list's lines (empty when there is no list).
    var personalWords: String
    /// What to say once: a dictionary that is not installed, a word list that cannot be read.
    var notes: [String]

    /// The language `LANG` names (`en_US.UTF-8` and `en_US@euro` are `en_US`), else `en_US`;
    /// `C` and `POSIX` name none.
    static func language(fromLANG value: String?) -> String {
        let fallback = "en_US"
        guard let value, !value.isEmpty else { return fallback }
        let name = String(value.prefix { $0 != "." && $0 != "@" })
        guard name != "C", name != "POSIX", Config.isLanguageName(name) else { return fallback }
        return name
    }

    /// The languages to check in: `spell` as the command line or config gives it
    /// (`["off"]`: none), else the one `LANG` names.
    static func languages(_ spell: [String]?, environment: [String: String]) -> [String] {
        guard let spell else { return [language(fromLANG: environment["LANG"])] }
        return spell == ["off"] ? [] : spell
    }

    /// The personal word list: `words` beside the config file
    /// (`$XDG_CONFIG_HOME/atpad/words`, else `~/.config/atpad/words`); nil without a home.
    static func personalListPath(environment: [String: String]) -> String? {
        Config.defaultPath(environment: environment).map { PathName.folder(of: $0) + "/words" }
    }

    /// Appends `word` as a line of the personal list at `path` (made, with its folder, by
    /// the first word), in one atomic write: "Add WORD to my words" in the editor and in
    /// `atpad lsp`.
    static func addPersonalWord(_ word: String, to path: String) throws {
        var bytes: [UInt8] = []
        do throws(FileContents.Failure) {
            bytes = try FileContents.read(path, regularOnly: true)
        } catch .missing {
            // The first word makes the list.
        }
        if let last = bytes.last, last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        bytes += Array((word + "\n").utf8)
        try AtomicFile.write(bytes, to: path, AtomicFile.Options(permissions: .keepExisting, createsFolders: true,
                                                                flushes: true, followsSymlinks: true))
    }

    /// The one line that says which languages have no dictionary installed (`missing`)
    /// and what is checked instead (in `found`, or nothing).
    static func missingNote(_ missing: [String], found: [String]) -> String {
        // Debian's packages are named for the language in lower case: hunspell-en-us.
        let packages = missing.map { "hunspell-" + $0.lowercased().replacingEvery("_", with: "-") }
        return "no Hunspell dictionary for \(missing.joined(separator: ", ")) (install "
            + "\(packages.joined(separator: ", ")), or see docs/spelling.md); "
            + (found.isEmpty ? "spelling is not checked" : "checking in \(found.joined(separator: ", "))")
    }

    /// Opens the dictionaries of `languages` from `folders` and reads the personal list.
    init(languages: [String], folders: [String], environment: [String: String]) {
        self.languages = languages
        self.notes = []
        var found: [HunspellDictionary] = []
        var missing: [String] = []
        for language in languages {
            if let dictionary = HunspellDictionary(language: language, folders: folders) {
                found.append(dictionary)
            } else {
                missing.append(language)
            }
        }
        if !missing.isEmpty { notes.append(Self.missingNote(missing, found: found.map(\.language))) }
        speller = found.isEmpty ? nil : Dictionaries(all: found)
        personalWords = ""
        if let path = Self.personalListPath(environment: environment) {
            do throws(FileContents.Failure) {
                personalWords = String(decoding: try FileContents.read(path, regularOnly: true), as: UTF8.self)
            } catch .missing {
                // No list yet: nothing added.
            } catch {
                notes.append("\(path) \(error.reason): its words are not known")
            }
        }
    }
}
