// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "atpad",
    // Linux only (built and tested on Debian 12 with glibc): the code uses Glibc,
    // malloc.h and /proc/self/exe, so no other platform is claimed (docs/install.md).
    products: [
        .executable(name: "atpad", targets: ["atpad"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        // Pure model: text, edits, mentions, triggers, completion state, undo, markup.
        .target(name: "AtpadCore", dependencies: ["CCmarkGFM"]),
        // cmark-gfm, GitHub's Markdown parser, through a header shim: what is code, a link
        // or HTML in Markdown documents.
        .systemLibrary(name: "CCmarkGFM", path: "Sources/CCmarkGFM"),
        // The one way to each thing outside the process: the atomic file writer, the
        // whole-file reader, child processes, HTTP over libcurl, background threads, the wake
        // pipe, the environment and paths. Knows nothing of comments or people.
        .target(name: "AtpadSystem", dependencies: ["CCurl", "CHunspell", "CMalloc"]),
        // Entity sources, directory files, ranking.
        .target(name: "AtpadDirectory", dependencies: [
            "AtpadCore", "AtpadSystem", .product(name: "HeapModule", package: "swift-collections"),
        ]),
        // The system libcurl (HTTP and HTTPS for URL sources), through a header shim.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl"),
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // The system Hunspell (spelling), through a header shim.
        .systemLibrary(name: "CHunspell", path: "Sources/CHunspell", pkgConfig: "hunspell",
                       providers: [.apt(["libhunspell-dev"])]),
        // The system ncursesw library, through a header shim.
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        // The terminal front end: key decoding, layout into a cell grid, theme, drawing.
        .target(
            name: "AtpadTerminal",
            dependencies: ["AtpadCore", "AtpadSystem", "CNcursesw"]
        ),
        // Commands and wiring shared by the executable and its tests.
        .target(
            name: "AtpadApp",
            dependencies: [
                "AtpadCore", "AtpadSystem", "AtpadDirectory", "AtpadTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            resources: [.copy("../../Resources")]
        ),
        // The door: records the git commit it is built from (`atpad --version`).
        .executableTarget(name: "atpad", dependencies: ["AtpadApp"], plugins: ["BuildCommit"]),
        .plugin(name: "BuildCommit", capability: .buildTool()),
        // Heap statistics for the memory benchmark (glibc's mallinfo2).
        .target(name: "CHeapStats"),
        .executableTarget(name: "AtpadBench", dependencies: ["AtpadCore", "AtpadSystem", "AtpadDirectory", "AtpadTerminal", "CHeapStats", "AtpadFoldTable"]),
        // Generates the core's fold table with Foundation's Unicode decomposition (for
        // AtpadBench and the test that checks the table), apart from atpad itself.
        .target(name: "AtpadFoldTable", dependencies: ["AtpadCore"]),
        // Helpers the test targets share (a seeded random generator).
        .target(name: "AtpadTestSupport", path: "Tests/AtpadTestSupport"),
        .testTarget(name: "AtpadCoreTests", dependencies: ["AtpadCore", "AtpadTestSupport", "CCmarkGFM"],
                    exclude: ["Golden", "MarkdownSpecs"]),
        .testTarget(name: "AtpadSystemTests", dependencies: ["AtpadSystem", "AtpadTestSupport"]),
        .testTarget(name: "AtpadDirectoryTests", dependencies: ["AtpadDirectory", "AtpadSystem", "AtpadCore", "AtpadTestSupport", "AtpadFoldTable"]),
        .testTarget(name: "AtpadTerminalTests", dependencies: ["AtpadTerminal", "AtpadSystem", "AtpadCore", "AtpadTestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "AtpadAppTests", dependencies: ["AtpadApp", "AtpadSystem", "AtpadCore", "AtpadDirectory", "AtpadTerminal", "AtpadTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// A member is visible only where its module is imported, so that no file uses full
// Foundation's string extensions by way of a dependency that imports it (atpad links
// FoundationEssentials only: see docs/benchmarks-history.md, "FoundationEssentials only").
for target in package.targets where ["AtpadCore", "AtpadSystem", "AtpadDirectory", "AtpadTerminal", "AtpadApp", "atpad"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
