import ArgumentParser
import AtpadCore
import AtpadDirectory
import Foundation

/// The options that choose directories: files, and which trigger each one serves.
struct DirectoryOptions: ParsableArguments {
    @Option(name: [.customShort("d"), .long], help: "A directory file (.json array). Repeatable; files merge.")
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

    /// Loads every routed directory (errors name the file, line and field).
    func load(limit: Int = 50) throws -> [Unicode.Scalar: FileDirectory] {
        var sources: [Unicode.Scalar: FileDirectory] = [:]
        for route in try routes() {
            let files = route.files.isEmpty && route.trigger == "@" ? [try BundledDirectory.path()] : route.files
            do {
                sources[route.trigger] = FileDirectory(entities: try files.flatMap(DirectoryFile.load(path:)), limit: limit)
            } catch let error as DirectoryError {
                throw UsageError(error.description)
            }
        }
        return sources
    }
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
