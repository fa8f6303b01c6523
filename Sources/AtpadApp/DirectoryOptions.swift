import ArgumentParser
import AtpadCore
import AtpadDirectory
import Foundation

/// The options that choose directories: files, and which trigger each one serves.
struct DirectoryOptions: ParsableArguments {
    @Option(name: [.customShort("d"), .long], help: "A directory file (.json array, .ndjson, .csv with a header). Repeatable; files merge.")
    var directory: [String] = []

    @Option(name: [.customShort("t"), .long], help: "Route a trigger to a directory file, as 'CHAR=PATH' (e.g. '#=channels.json').")
    var trigger: [String] = []

    /// The triggers and the files each one reads; `@` falls back to the bundled directory.
    func routes() throws -> [(trigger: Unicode.Scalar, files: [String])] {
        var routes: [(trigger: Unicode.Scalar, files: [String])] = [("@", directory)]
        for spec in trigger {
            guard let eq = spec.firstIndex(of: "="),
                  spec[..<eq].unicodeScalars.count == 1, let t = spec[..<eq].unicodeScalars.first,
                  EditorConfig.triggerSet.contains(t) else {
                throw UsageError("--trigger '\(spec)': expected CHAR=PATH with CHAR one of @ # $ % + ~ :")
            }
            let path = String(spec[spec.index(after: eq)...])
            guard !path.isEmpty else { throw UsageError("--trigger '\(spec)': no directory file after '='") }
            if let i = routes.firstIndex(where: { $0.trigger == t }) {
                routes[i].files.append(path)
            } else {
                routes.append((t, [path]))
            }
        }
        return routes
    }

    /// Loads every routed directory, merging the files of each trigger in the order given
    /// (errors name the file, line and field; warnings such as duplicate ids come back).
    func load(limit: Int = 50) throws -> LoadedDirectories {
        var loaded = LoadedDirectories()
        for route in try routes() {
            let files = route.files.isEmpty && route.trigger == "@" ? [try BundledDirectory.path()] : route.files
            do {
                let merged = try DirectoryLoader.load(paths: files)
                loaded.sources[route.trigger] = FileDirectory(merged, limit: limit)
                loaded.warnings += merged.warnings
            } catch let error as DirectoryError {
                throw UsageError(error.description)
            }
        }
        return loaded
    }
}

/// The directories of every trigger, and the warnings loading them gave.
struct LoadedDirectories {
    /// The directory of each trigger.
    var sources: [Unicode.Scalar: FileDirectory] = [:]
    /// One line each, without the `atpad: ` prefix (say, `2 duplicate ids ignored (…)`).
    var warnings: [String] = []
}

/// The files shipped with atpad: the sample directory and the themes.
enum BundledResources {
    static func folder() throws -> URL {
        // Next to the executable first: Foundation's Bundle lookup costs milliseconds of
        // start-up, and the resources bundle sits beside the binary SwiftPM builds.
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let beside = URL(fileURLWithPath: exe).deletingLastPathComponent()
                .appendingPathComponent("atpad_AtpadApp.resources/Resources")
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: beside.path, isDirectory: &isFolder), isFolder.boolValue {
                return beside
            }
        }
        if let url = Bundle.module.url(forResource: "Resources", withExtension: nil) { return url }
        throw UsageError("the bundled resources are missing from this installation")
    }

    static func themes() throws -> URL {
        try folder().appendingPathComponent("themes")
    }
}

/// The sample directory shipped with atpad.
enum BundledDirectory {
    static func path() throws -> String {
        try BundledResources.folder().appendingPathComponent("people.json").path
    }
}
