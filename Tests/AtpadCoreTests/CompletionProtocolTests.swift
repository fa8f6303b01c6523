import AtpadCore
import Testing

/// The completion protocol (ARCHITECTURE.md, "The mention and search state machine"):
/// batches, dedupe by id, final marker, stale batches, coalescing, failures.
@Suite struct CompletionProtocolTests {
    let john = Candidate(entity: Entity(id: "1", name: "John Doe"))
    let jane = Candidate(entity: Entity(id: "2", name: "Jane Roe"))
    let johanna = Candidate(entity: Entity(id: "3", name: "Johanna Lee"))

    /// A harness whose queries are left unanswered, so the test plays the source.
    func manual(_ start: String = "|") throws -> Harness {
        var h = try Harness(start)
        h.autoAnswer = false
        return h
    }

    func lastQueryID(_ h: Harness) -> Int? {
        h.effects.reversed().compactMap { if case let .query(id, _, _) = $0 { return id } else { return nil } }.first
    }

    @Test func batchesAppendInOrderAndDedupeByID() throws {
        var h = try manual()
        try h.keys("@j")
        h.run(h.editor.receive(.ended(queryID: try #require(lastQueryID(h)))))
        let id = try #require(h.editor.search?.queryID)
        h.run(h.editor.receive(.batch(queryID: id, [john, jane], isFinal: false)))
        #expect(h.editor.search?.isLoading == true)
        h.run(h.editor.receive(.batch(queryID: id, [jane, johanna], isFinal: false)))
        #expect(h.chooserIDs == ["1", "2", "3"])
        h.run(h.editor.receive(.batch(queryID: id, [], isFinal: true)))
        #expect(h.editor.search?.isLoading == false)
        #expect(h.chooserIDs == ["1", "2", "3"])
    }

    @Test func emptyFirstBatchFinalMeansNoMatches() throws {
        var h = try manual()
        try h.keys("@")
        let id = try #require(h.editor.search?.queryID)
        h.run(h.editor.receive(.batch(queryID: id, [], isFinal: true)))
        #expect(h.editor.search?.isOpen == true)
        #expect(h.editor.search?.items.isEmpty == true)
        #expect(h.editor.search?.isLoading == false)
    }

    @Test func previousResultsStayUntilTheNewQueryAnswers() throws {
        var h = try manual()
        try h.keys("@j")
        let first = try #require(h.editor.search?.queryID)
        h.run(h.editor.receive(.batch(queryID: first, [john, jane, johanna], isFinal: true)))
        try h.keys("<Down>o")
        let second = try #require(h.editor.search?.queryID)
        #expect(second != first)
        // Still the previous results (no empty chooser in between), still loading.
        #expect(h.chooserIDs == ["1", "2", "3"])
        #expect(h.editor.search?.isLoading == true)
        h.run(h.editor.receive(.batch(queryID: second, [johanna], isFinal: false)))
        #expect(h.chooserIDs == ["3"], "the first answer replaces them")
        #expect(h.editor.search?.selected == 0)
        h.run(h.editor.receive(.batch(queryID: second, [john], isFinal: true)))
        #expect(h.chooserIDs == ["3", "1"], "later batches append")
    }

    @Test func anEmptyOrFailedAnswerClearsThePreviousResults() throws {
        var h = try manual()
        try h.keys("@j")
        h.run(h.editor.receive(.batch(queryID: try #require(h.editor.search?.queryID), [john], isFinal: true)))
        try h.keys("x")
        h.run(h.editor.receive(.batch(queryID: try #require(h.editor.search?.queryID), [], isFinal: true)))
        #expect(h.chooserIDs.isEmpty)
        try h.keys("<BS>")
        let id = try #require(h.editor.search?.queryID)
        h.run(h.editor.receive(.batch(queryID: id, [john], isFinal: true)))
        try h.keys("q")
        h.run(h.editor.receive(.failed(queryID: try #require(h.editor.search?.queryID), message: "boom")))
        #expect(h.chooserIDs.isEmpty)
        #expect(h.editor.search?.error == "boom")
    }

    @Test func staleBatchesAreIgnoredAndCancelled() throws {
        var h = try manual()
        try h.keys("@")
        let first = try #require(h.editor.search?.queryID)
        try h.keys("j")
        #expect(h.effects.contains(.cancel(id: first)), "the stale query's work is cancelled")
        h.run(h.editor.receive(.batch(queryID: first, [john], isFinal: false)))
        #expect(h.chooserIDs.isEmpty, "a batch for the stale query is ignored")
    }

    @Test func oneRequestInFlightPerTriggerNewestSentNext() throws {
        var h = try manual()
        try h.keys("@")
        let first = try #require(lastQueryID(h))
        try h.keys("j")
        try h.keys("o")
        try h.keys("h")
        // Nothing new is sent while the first is still running.
        #expect(h.queries == [""])
        h.run(h.editor.receive(.ended(queryID: first)))
        #expect(h.queries == ["", "joh"], "only the newest query is sent when the slot frees")
        let newest = try #require(lastQueryID(h))
        h.run(h.editor.receive(.batch(queryID: newest, [john], isFinal: true)))
        #expect(h.chooserIDs == ["1"])
    }

    @Test func failureShowsErrorAndEditingGoesOn() throws {
        var h = try manual()
        try h.keys("@j")
        h.run(h.editor.receive(.ended(queryID: try #require(lastQueryID(h)))))
        let id = try #require(h.editor.search?.queryID)
        h.run(h.editor.receive(.failed(queryID: id, message: "exit status 3")))
        #expect(h.editor.search?.error == "exit status 3")
        #expect(h.editor.search?.isLoading == false)
        try h.keys("o")
        #expect(h.query == "jo")
        #expect(h.editor.search?.error == nil)
    }

    @Test func endingSearchCancelsQueryInFlight() throws {
        var h = try manual()
        try h.keys("@")
        let id = try #require(lastQueryID(h))
        try h.keys("<Esc>")
        #expect(h.effects.last == .cancel(id: id))
    }

    @Test func finalBatchFreesSlotWithoutEnded() throws {
        var h = try manual()
        try h.keys("@")
        let id = try #require(lastQueryID(h))
        h.run(h.editor.receive(.batch(queryID: id, [john], isFinal: true)))
        try h.keys("j")
        #expect(h.queries == ["", "j"])
    }
}
