import AtpadApp
import Foundation

// The executable is only the door: everything else lives in AtpadApp.
exit(await AtpadMain.run(Array(CommandLine.arguments.dropFirst())))
