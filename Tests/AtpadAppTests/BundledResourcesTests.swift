@testable import AtpadApp
import Foundation
import Testing

/// Resources are found beside the real executable, installed or built (docs/install.md), by file
/// name, and a missing one is a message, never a trap.
@Suite struct BundledResourcesTests {
    @Test func anInstalledBinaryLooksInItsPrefixFirstThenBesideABuild() {
        let folders = BundledResources.candidates(executable: "/opt/atpad/bin/atpad").map(\.path)
        #expect(folders == ["/opt/atpad/share/atpad", "/opt/atpad/bin/atpad_AtpadApp.resources/Resources"])
        #expect(BundledResources.candidates(executable: nil).isEmpty)
    }

    @Test func aFileIsTakenFromTheFirstFolderThatHasIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("atpad-resources-\(getpid())-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = root.appendingPathComponent("first"), second = root.appendingPathComponent("second")
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: second.appendingPathComponent("emoji.json"))
        try Data("[]".utf8).write(to: first.appendingPathComponent("people.json"))
        try Data("[]".utf8).write(to: second.appendingPathComponent("people.json"))
        #expect(BundledResources.find("people.json", in: [first, second])?.path == first.appendingPathComponent("people.json").path)
        #expect(BundledResources.find("emoji.json", in: [first, second])?.path == second.appendingPathComponent("emoji.json").path)
        #expect(BundledResources.find("nothing.json", in: [first, second]) == nil)
    }

    @Test func theTestBuildFindsItsResourcesWithoutBundleModule() throws {
        let people = try #require(BundledResources.file("people.json"))
        #expect(people.path.hasSuffix("atpad_AtpadApp.resources/Resources/people.json"))
        #expect(BundledResources.themes().count == 1)
        #expect(try BundledDirectory.path() == people.path)
    }
}
