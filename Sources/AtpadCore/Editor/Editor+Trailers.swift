/// git's `Signed-off-by:` (Alt-O, docs/git.md, "Signing off").
extension Editor {
    /// Adds `Signed-off-by: IDENT` where `git commit -s` would (``PersonTrailers/signOff(_:in:commentPrefix:)``),
    /// once, as one undo step, the cursor after it; says why not outside git's message
    /// files or without git's identity.
    mutating func signOff() {
        guard config.personTrailers != nil else {
            pendingEffects.append(.notice("Alt-O signs off git's commit messages only"))
            return
        }
        guard let ident = config.signOffIdent else {
            pendingEffects.append(.notice("Not signed off: git has no name and email (git config user.name, user.email)"))
            return
        }
        let line = PersonTrailers.signOffLine(ident)
        // The message ends at the scissors line: the diff under it is git's.
        let message = storage.slice(0 ..< (gitScissors ?? storage.count))
        guard let (at, text) = PersonTrailers.signOff(line, in: message, commentPrefix: config.git?.comment ?? "#") else {
            pendingEffects.append(.notice("Already signed off: \(line)"))
            return
        }
        endSearch()
        apply(replacing(at ..< at, with: text), selectionAfter: .cursor(at + text.unicodeScalars.count))
        breakUndoCoalescing()
    }
}
