import ArgumentParser
import AtpadCore

/// The editing options the editor and `atpad replay` share. Not given, they are nil (or
/// false): the editor then takes the config's value, replay the default.
struct EditingOptions: ParsableArguments {
    @Option(help: "Word characters that start an implicit search (0 = off; default \(EditorConfig.defaultImplicitThreshold)).")
    var implicit: Int?

    @Flag(help: "Backspace on a selected mention trims it to its first word first.")
    var trimMentions = false

    /// `--implicit` when given, checked.
    func checkedImplicit() throws -> Int? {
        guard let implicit else { return nil }
        guard implicit >= 0 else { throw UsageError("--implicit must be 0 or more") }
        return implicit
    }
}
