import AtpadCore
import FoundationEssentials
import Glibc

/// Finds the files shipped with atpad (the sample directory, the themes, and whatever
/// else sits in `Resources/`) without ever trapping (docs/install.md).
///
/// SwiftPM's `Bundle.module` calls `fatalError` when the resource bundle is not where the
/// build left it, so a binary copied or installed elsewhere would crash before it could
/// say anything. atpad never touches it: it looks relative to the real path of its own
/// executable, first where `scripts/install` puts the resources (`../share/atpad`, so a
/// moved prefix or a symlink to `bin/atpad` still works), then where SwiftPM copies them
/// (the `atpad_AtpadApp.resources` bundle beside the binary, for `swift run` and tests).
/// Lookups are by file name, so a new resource needs no code here.
enum BundledResources {
    /// Where SwiftPM copies the `Resources` folder, relative to the built binary.
    static let buildBundle = "atpad_AtpadApp.resources/Resources"
    /// Where `scripts/install` puts it, relative to the installed binary's folder.
    static let installed = "../share/atpad"

    /// The folders that may hold the resources, in the order they are searched, for an
    /// executable at `executable` (a real path, no symlinks left).
    static func candidates(executable: String?) -> [URL] {
        guard let executable else { return [] }
        // Paths said to be folders or files: a URL left to guess asks the file system.
        let folder = URL(filePath: executable, directoryHint: .notDirectory).deletingLastPathComponent()
        return [folder.appending(path: installed, directoryHint: .isDirectory).standardized,
                folder.appending(path: buildBundle, directoryHint: .isDirectory)]
    }

    /// The candidates for this process, worked out once: `/proc/self/exe` is the
    /// executable's real path (the kernel resolves every symlink), so `~/bin/atpad →
    /// /opt/atpad/bin/atpad` finds `/opt/atpad/share/atpad`.
    static let searched: [URL] = candidates(executable: executablePath())

    /// The real path of this process's executable, or nil.
    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The first of `folders` that has an entry (file or folder) called `name`, or nil.
    static func find(_ name: String, in folders: [URL]) -> URL? {
        for folder in folders {
            let url = folder.appending(path: name, directoryHint: .notDirectory)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return nil
    }

    /// The shipped file or folder called `name` (`people.json`, `themes`), or nil when
    /// this installation lacks it.
    static func file(_ name: String) -> URL? {
        find(name, in: searched)
    }

    /// The first resources folder that exists; a clear error naming where it looked
    /// when there is none.
    static func folder() throws -> URL {
        let folders = searched
        for folder in folders {
            var isFolder = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder {
                return folder
            }
        }
        throw UsageError("atpad's resources are missing from this installation (looked in "
            + folders.map(\.path).joined(separator: ", ") + ")")
    }

    /// The bundled themes folders to search by name (empty when none is installed: the
    /// default theme is built in).
    static func themes() -> [URL] {
        file("themes").map { [$0] } ?? []
    }

    /// Where a missing resource was looked for, for messages: the first candidate, which
    /// is where an installation keeps it.
    static func expectedPath(of name: String) -> String {
        (searched.first?.appending(path: name, directoryHint: .notDirectory).path) ?? name
    }
}

/// The sample directory shipped with atpad, which serves `@` when nothing else does.
enum BundledDirectory {
    static let fileName = "people.json"

    /// Its path, or a usage error saying it is missing.
    static func path() throws -> String {
        guard let url = BundledResources.file(fileName) else { throw UsageError(missingMessage) }
        return url.path
    }

    /// The one line said when the sample directory is missing: the editor still works,
    /// with no directory for `@`.
    static var missingMessage: String {
        "the sample directory is missing from this installation (\(BundledResources.expectedPath(of: fileName)));"
            + " give a directory with -d FILE"
    }

    /// The emoji directory that answers `:` unless configured otherwise
    /// (docs/keys.md, "Emoji (`:`)"), or nil when this installation lacks it (then `:` is
    /// no trigger; never an error).
    static func emojiPath() -> String? {
        guard let url = BundledResources.file("emoji.json"),
              FileManager.default.isReadableFile(atPath: url.path) else { return nil }
        return url.path
    }
}

/// The list of frequent English words the implicit search keeps quiet on
/// (docs/keys.md, "Implicit search: when it speaks up"), read once; without it (a partial
/// installation) nothing is quiet.
enum BundledQuietWords {
    static let words: QuietWords = {
        guard let url = BundledResources.file("common-words-en.txt"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return QuietWords() }
        return QuietWords(list: text)
    }()
}
