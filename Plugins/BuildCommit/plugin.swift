import Foundation
import PackagePlugin

/// Records the git commit atpad is built from, for `atpad --version` (docs/install.md).
///
/// A prebuild command runs on every build; `scripts/build-commit` rewrites its one
/// generated file only when the commit changes, and only the tiny `atpad` executable
/// target uses it, so an unchanged commit rebuilds nothing and a new one recompiles one
/// short file.
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("generated")
        let root = context.package.directoryURL
        return [
            .prebuildCommand(
                displayName: "Recording the git commit of \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [root.appendingPathComponent("scripts/build-commit").path, root.path,
                            output.appendingPathComponent("BuildCommit.swift").path],
                outputFilesDirectory: output),
        ]
    }
}
