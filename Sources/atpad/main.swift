import AtpadApp

// The executable is only the door: everything else lives in AtpadApp.
AtpadMain.main(Array(CommandLine.arguments.dropFirst()))
