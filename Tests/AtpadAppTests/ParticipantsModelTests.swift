@testable import AtpadApp
import AtpadCore
import AtpadTestSupport
import Foundation
import Testing

/// The participants' arrival in the app model (`--to`): an open `@` search is asked
/// again, so the participants go first without another key; a failure is one line on the
/// message line and changes nothing else.
@Suite struct ParticipantsModelTests {
    @Test func arrivalAsksTheOpenSearchAgain() throws {
        var app = try AppHarness("hi |")
        let typed = try app.keys("@")
        guard case let .core(.query(first, "@", ""))? = typed.last(where: { if case .core(.query) = $0 { true } else { false } })
        else { Issue.record("no query: \(typed)"); return }
        app.send(.completion(.batch(queryID: first, [Candidate(entity: Entity(id: "1", name: "John"))], isFinal: true)))
        let again = app.send(.participantsFetched(trigger: "@", failure: nil))
        guard case let .core(.query(second, "@", ""))? = again.last else { Issue.record("not asked again: \(again)"); return }
        #expect(second != first)
        #expect(app.text == "hi @")
        // Another trigger's search is not asked again.
        #expect(app.send(.participantsFetched(trigger: "#", failure: nil)) == [])
    }

    @Test func withoutASearchNothingIsAsked() throws {
        var app = try AppHarness("hi|")
        #expect(app.send(.participantsFetched(trigger: "@", failure: nil)) == [])
        #expect(app.model.message == "")
    }

    @Test func aFailureIsOneLineAndTypingGoesOn() throws {
        var app = try AppHarness("hi|")
        #expect(app.send(.participantsFetched(trigger: "@", failure: "participants of slack:C1 not loaded: HTTP 500")) == [])
        #expect(app.model.message == "participants of slack:C1 not loaded: HTTP 500; ranking without them")
        try app.keys("!")
        #expect(app.text == "hi!")
    }

    @Test func aFailureDuringThePostQuestionKeepsWhoItNotifies() throws {
        var app = try AppHarness("hi @[John Doe](U1)|")
        app.model.postTarget = .slack(channel: "C1", thread: nil)
        try app.keys("<C-s>")
        #expect(app.model.message == "Notifies @John Doe")
        app.send(.participantsFetched(trigger: "@", failure: "participants of slack:C1 not loaded: HTTP 500"))
        #expect(app.model.message == "Notifies @John Doe; participants of slack:C1 not loaded: HTTP 500; ranking without them")
        #expect(app.model.mode == .postQuestion(.slack(channel: "C1", thread: nil)))
    }

    @Test func theCheckoutsPullRequestIsReadFromGhsAnswer() {
        let answer = Array(#"{"number": 7, "url": "https://github.com/octo/atpad/pull/7"}"#.utf8)
        #expect(ParticipantsSetup.pullRequest(fromAnswer: answer) == .github(owner: "octo", repository: "atpad", number: 7))
        #expect(ParticipantsSetup.pullRequest(fromAnswer: Array("no pull requests found".utf8)) == nil)
        #expect(ParticipantsSetup.pullRequest(fromAnswer: Array(#"{"url": "https://github.com/octo/atpad/issues/7"}"#.utf8)) == nil)
    }

    /// A language server's workspace is not its working directory: gh is asked in the
    /// workspace's folder, with exactly its own arguments (a stand-in gh checks both).
    @Test func theBranchsPullRequestIsAskedInTheWorkspacesFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path("ws-7 b"), withIntermediateDirectories: true)
        let gh = try folder.write("bin/gh", """
            #!/bin/sh
            [ "$*" = "pr view --json number,url" ] || exit 64
            n=${PWD##*-}; n=${n%% *}
            printf '{"number": %s, "url": "https://github.com/octo/atpad/pull/%s"}' "$n" "$n"
            """)
        chmod(gh, 0o755)
        let environment = ["PATH": folder.path("bin") + ":/usr/bin:/bin"]
        #expect(ParticipantsSetup.pullRequest(timeout: .seconds(10), environment: environment, folder: folder.path("ws-7 b"))
            == .github(owner: "octo", repository: "atpad", number: 7))
        // A folder that is not there: no pull request, no failure.
        #expect(ParticipantsSetup.pullRequest(timeout: .seconds(10), environment: environment,
                                              folder: folder.path("gone")) == nil)
    }

    @Test func theConversationIsTheTargetElseTheGithubPresetsPullRequest() {
        let target = PostTarget.slack(channel: "C1", thread: nil)
        #expect(ParticipantsSetup.conversation(target: target, preset: "github") == .target(target))
        #expect(ParticipantsSetup.conversation(target: nil, preset: "github") == .currentPullRequest)
        #expect(ParticipantsSetup.conversation(target: nil, preset: "slack") == nil)
        #expect(ParticipantsSetup.conversation(target: nil, preset: nil) == nil)
    }
}
