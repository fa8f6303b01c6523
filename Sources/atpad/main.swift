import AtpadApp

// The executable is only the door: everything else lives in AtpadApp. `buildCommit` is
// generated at build time by the BuildCommit plugin (scripts/build-commit).
AtpadMain.main(Array(CommandLine.arguments.dropFirst()), commit: buildCommit)
