import ArgumentParser
import AtpadCore

/// `atpad keys` (hidden): the key list of F1 with its details, as the Markdown table the
/// docs hold and `scripts/manpage.py` turns into the man page's KEYS section; with
/// `--config-keys`, the config file's keys (``ConfigKey/all``), for docs/config.md and
/// atpad.toml(5); with `--formats`, the format names, for the man page's FORMATS.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Print every key binding as a Markdown table (for the docs and the man page).",
        shouldDisplay: false
    )

    @Flag(help: "Print the config file's keys instead.")
    var configKeys = false

    @Flag(help: "Print the format names instead, one a line (output-only ones marked).")
    var formats = false

    func run() {
        if formats {
            for format in DocumentFormat.allCases {
                print(format.rawValue + (format.isOutputOnly ? " (output only)" : ""))
            }
        } else {
            print(configKeys ? ConfigKey.markdown : KeysCommand.markdown, terminator: "")
        }
    }

    /// The table: one row per F1 row, its help and, after a dash, the details.
    static var markdown: String {
        var lines = ["| key | action |", "|---|---|"]
        for row in Keymap.rows() {
            let action = row.help + (row.detail.map { " — " + $0 } ?? "")
            lines.append("| \(row.keys) | \(action.replacingEvery("|", with: "\\|")) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
