// swift-tools-version:6.0
import PackageDescription

// Release builds put every function in a section of its own, and the linker lays the
// functions an echoed keystroke runs side by side at the front (Linker/hot-functions.txt,
// written by scripts/hot-functions): after the pause between two keys the echo's code is
// cold, and a few dense pages fetch faster than a few hundred scattered ones
// (BENCHMARKS.md, "Laying out the echo path"). lld comes with the Swift toolchain.
let ownCode: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]
let hotFunctionsFirst: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Linker/hot-functions.txt",
                  "-Xlinker", "--no-warn-symbol-ordering"], .when(configuration: .release)),
]

let package = Package(
    name: "atpad",
    // Linux only (built and tested on Debian 12 with glibc): the code uses Glibc,
    // malloc.h and /proc/self/exe, so no other platform is claimed (SPEC §13).
    products: [
        .executable(name: "atpad", targets: ["atpad"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // Pure model: text, edits, mentions, triggers, completion state, undo, markup.
        .target(name: "AtpadCore", swiftSettings: ownCode),
        // Entity sources, directory files, ranking.
        .target(name: "AtpadDirectory", dependencies: ["AtpadCore", "CCurl"], swiftSettings: ownCode),
        // The system libcurl (HTTP and HTTPS for URL sources), through a header shim.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl"),
        // The system ncursesw library, through a header shim.
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        // The terminal front end: key decoding, layout into a cell grid, theme, drawing.
        .target(
            name: "AtpadTerminal",
            dependencies: ["AtpadCore", "CNcursesw", .product(name: "TOMLKit", package: "TOMLKit")],
            swiftSettings: ownCode
        ),
        // Commands and wiring shared by the executable and its tests.
        .target(
            name: "AtpadApp",
            dependencies: [
                "AtpadCore", "AtpadDirectory", "AtpadTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            resources: [.copy("../../Resources")],
            swiftSettings: ownCode
        ),
        // The door: records the git commit it is built from (`atpad --version`).
        .executableTarget(name: "atpad", dependencies: ["AtpadApp"], swiftSettings: ownCode,
                         linkerSettings: hotFunctionsFirst, plugins: ["BuildCommit"]),
        .plugin(name: "BuildCommit", capability: .buildTool()),
        // Heap statistics for the memory benchmark (glibc's mallinfo2).
        .target(name: "CHeapStats"),
        .executableTarget(name: "AtpadBench", dependencies: ["AtpadCore", "AtpadDirectory", "AtpadTerminal", "CHeapStats"]),
        // Helpers the test targets share (a seeded random generator).
        .target(name: "AtpadTestSupport", path: "Tests/AtpadTestSupport"),
        .testTarget(name: "AtpadCoreTests", dependencies: ["AtpadCore", "AtpadTestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "AtpadDirectoryTests", dependencies: ["AtpadDirectory", "AtpadCore", "AtpadTestSupport"]),
        .testTarget(name: "AtpadTerminalTests", dependencies: ["AtpadTerminal", "AtpadCore", "AtpadTestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "AtpadAppTests", dependencies: ["AtpadApp", "AtpadCore", "AtpadDirectory", "AtpadTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
