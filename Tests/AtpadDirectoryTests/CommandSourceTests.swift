import AtpadCore
import Foundation
import Testing
@testable import AtpadDirectory

import Glibc

@Suite struct CommandSourceTests {
    // MARK: - Answers

    @Test func eachLineIsAnEntityAndEndOfOutputIsFinal() async throws {
        let source = CommandSource(command: """
            echo '{"id": "u1", "name": "John Doe", "handle": "jdoe", "detail": "iOS", "url": "https://x"}'
            echo '{"id": 42, "name": "Jane"}'
            """)
        let result = await answer(source, "jo")
        #expect(result.error == nil)
        #expect(result.ids == ["u1", "42"])
        let first = try #require(result.batches.first?.first)
        #expect(first.entity == Entity(id: "u1", name: "John Doe", handle: "jdoe", detail: "iOS", url: "https://x"))
        #expect(first.matches == [])
    }

    @Test func batchesArriveWhilePrinting() async throws {
        let folder = try ScriptFolder()
        // The second line is printed only after the test has seen the first one.
        let source = CommandSource(command: """
            echo '\(entityJSON("1", "A"))'
            while [ ! -e '\(folder.file("go"))' ]; do sleep 0.01; done
            echo '\(entityJSON("2", "B"))'
            """)
        var iterator = source.search("", trigger: "@").makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.map(\.entity.id) == ["1"])
        folder.touch("go")
        let second = try await iterator.next()
        #expect(second?.map(\.entity.id) == ["2"])
        let end = try await iterator.next()
        #expect(end == nil)
    }

    @Test func noOutputIsOneEmptyBatch() async {
        let result = await answer(CommandSource(command: "true"), "x")
        #expect(result.error == nil)
        #expect(result.batches == [[]])
    }

    @Test func blankLinesCRLFAndAMissingLastLineFeed() async {
        let source = CommandSource(command: #"printf '\n  \n{"id":"1","name":"A"}\r\n\r\n{"id":"2","name":"B"}'"#)
        let result = await answer(source, "")
        #expect(result.error == nil)
        #expect(result.ids == ["1", "2"])
    }

    @Test func repeatedIdsAreDroppedAndTheLimitEndsTheAnswer() async {
        let source = CommandSource(
            command: """
                echo '\(entityJSON("1", "A"))'; echo '\(entityJSON("1", "A again"))'
                i=2; while :; do echo "{\\"id\\": \\"$i\\", \\"name\\": \\"N$i\\"}"; i=$((i+1)); done
                """,
            limit: 5
        )
        let result = await answer(source, "")
        #expect(result.error == nil)
        #expect(result.ids == ["1", "2", "3", "4", "5"])
    }

    // MARK: - The query is an argument, never command text

    @Test(arguments: [
        "$(touch PWNED)", "`touch PWNED`", "; touch PWNED", "| touch PWNED", "&& touch PWNED",
        "\"'", "*", "-n", "a b  c", "$1 $@ ${HOME}", "back\\slash", "new\nline", "Zoë 日本 🙂", "",
    ])
    func queryArrivesAsTheFirstArgumentUntouched(_ query: String) async throws {
        let folder = try ScriptFolder()
        let pwned = folder.file("pwned")
        let probe = query.replacingOccurrences(of: "PWNED", with: pwned)
        let source = CommandSource(command: """
            printf '%s' "$1" > '\(folder.file("arg"))'
            printf '%s' "$#" > '\(folder.file("count"))'
            printf '%s' "$ATPAD_QUERY" > '\(folder.file("env"))'
            """)
        let result = await answer(source, probe)
        #expect(result.error == nil)
        #expect(folder.read("arg") == probe)
        #expect(folder.read("env") == probe)
        #expect(folder.read("count") == "1")
        #expect(!FileManager.default.fileExists(atPath: pwned))
    }

    @Test func aQueryWithNULIsRefusedRatherThanCut() async {
        let result = await answer(CommandSource(command: "echo '\(entityJSON("1", "A"))'"), "a\u{0}b")
        #expect(result.message == "cannot pass a NUL character to /bin/sh")
    }

    @Test func triggerAndQueryAreInTheEnvironment() async throws {
        let folder = try ScriptFolder()
        let source = CommandSource(command: "printf '%s|%s' \"$ATPAD_QUERY\" \"$ATPAD_TRIGGER\" > '\(folder.file("env"))'")
        _ = await answer(source, "Travis B", trigger: "#")
        #expect(folder.read("env") == "Travis B|#")
    }

    @Test func stdinIsEmptyAndStderrStaysOffTheScreen() async {
        // `cat` would wait for a terminal forever; with /dev/null it ends at once.
        let result = await answer(CommandSource(command: "cat; echo noise >&2; echo '\(entityJSON("1", "A"))'"), "")
        #expect(result.error == nil)
        #expect(result.ids == ["1"])
    }

    // MARK: - Failures

    @Test func nonZeroExitFailsWithTheStatusAndLastStderrLine() async {
        let result = await answer(CommandSource(command: "echo first >&2; echo 'no such user' >&2; exit 3"), "x")
        #expect(result.message == "directory command exited with status 3: no such user")
        let quiet = await answer(CommandSource(command: "exit 4"), "x")
        #expect(quiet.message == "directory command exited with status 4")
    }

    @Test func deathBySignalFails() async {
        let result = await answer(CommandSource(command: "kill -9 $$"), "x")
        #expect(result.message?.hasPrefix("directory command was killed by signal 9") == true)
    }

    @Test func aMissingProgramFailsLikeAnyExit() async {
        let result = await answer(CommandSource(command: "/nonexistent/lookup"), "x")
        #expect(result.message?.hasPrefix("directory command exited with status 127: ") == true)
    }

    @Test func garbageStopsTheAnswerAfterTheEntitiesBeforeIt() async {
        let result = await answer(CommandSource(command: "echo '\(entityJSON("1", "A"))'; echo 'Jane Doe'; echo '\(entityJSON("2", "B"))'"), "")
        #expect(result.ids == ["1"])
        #expect(result.message?.hasPrefix("directory command printed a malformed line 2: not valid JSON: ") == true)
    }

    @Test(arguments: [
        (#"{"id": "1"}"#, #"the entity has no "name""#),
        (#"{"name": "A"}"#, #"the entity has no "id""#),
        (#"[{"id": "1", "name": "A"}]"#, "expected one entity object per line, found an array"),
        (#"{"id": "1", "name": "A"} trailing"#, "not valid JSON: unexpected 'trailing' after the object (one object per line)"),
        (#"{"id": "1", "name": "A""#, "not valid JSON: "),
    ])
    func malformedEntitiesAreNamed(_ line: String, _ problem: String) async {
        let result = await answer(CommandSource(command: "printf '%s\\n' '\(line)'"), "")
        #expect(result.message?.hasPrefix("directory command printed a malformed line 1: \(problem)") == true, "\(result.message ?? "nil")")
    }

    @Test func invalidUTF8Fails() async {
        let result = await answer(CommandSource(command: #"printf '{"id": "1", "name": "\377"}\n'"#), "")
        #expect(result.message == "directory command printed a malformed line 1: not valid UTF-8 (byte 0xFF at column 22)")
    }

    @Test func aHangingCommandTimesOutAndIsKilled() async throws {
        let folder = try ScriptFolder()
        let source = CommandSource(command: "echo $$ > '\(folder.file("pid"))'; sleep 30", timeout: .milliseconds(300))
        let start = ContinuousClock.now
        let result = await answer(source, "x")
        #expect(result.message == "directory command timed out after 0.3 s")
        #expect(ContinuousClock.now - start < .seconds(2))
        let pid = try #require(folder.pid("pid"))
        #expect(isReaped(pid))
    }

    @Test func aCommandThatClosesStdoutButKeepsRunningTimesOut() async {
        let source = CommandSource(command: "echo '\(entityJSON("1", "A"))'; exec >&-; sleep 30", timeout: .milliseconds(300))
        let result = await answer(source, "x")
        #expect(result.ids == ["1"])
        #expect(result.message == "directory command timed out after 0.3 s")
    }

    @Test func aHugeLineFails() async {
        // 2 MB without a line feed, then more forever: refused as soon as it passes 1 MiB.
        let result = await answer(CommandSource(command: "yes | tr -d '\\n'"), "")
        #expect(result.message == "directory command printed a line longer than 1 MB (line 1)")
        let ended = await answer(CommandSource(command: "head -c 2000000 /dev/zero | tr '\\0' a; echo"), "")
        #expect(ended.message == "directory command printed a line longer than 1 MB (line 1)")
    }

    @Test func hugeOutputIsCut() async {
        // Endless blank lines (or one entity repeated) never reach the limit: capped by size.
        let blank = await answer(CommandSource(command: "yes ''"), "")
        #expect(blank.message == "directory command printed more than 4 MB")
        let same = await answer(CommandSource(command: "yes '\(entityJSON("1", "A"))'"), "")
        #expect(same.ids == ["1"])
        #expect(same.message == "directory command printed more than 4 MB")
    }

    // MARK: - Stale queries leave nothing behind

    @Test func cancellingEndsTheShellAndItsChildren() async throws {
        let folder = try ScriptFolder()
        // A grandchild that ignores SIGTERM needs the SIGKILL that follows.
        let source = CommandSource(command: """
            sleep 30 & echo $! > '\(folder.file("child"))'
            sh -c 'trap "" TERM; echo $$ > "$0"; exec sleep 30' '\(folder.file("stubborn"))' &
            echo $$ > '\(folder.file("shell"))'
            echo '\(entityJSON("1", "A"))'
            wait
            """)
        let consumer = Task {
            var batches = 0
            for try await _ in source.search("x", trigger: "@") { batches += 1 }
            return batches
        }
        let started = await eventually { folder.pid("shell") != nil && folder.pid("child") != nil && folder.pid("stubborn") != nil }
        #expect(started)
        consumer.cancel()
        let shell = try #require(folder.pid("shell"))
        let child = try #require(folder.pid("child"))
        let stubborn = try #require(folder.pid("stubborn"))
        #expect(await eventually { isReaped(shell) })
        #expect(await eventually { isGone(child) && isGone(stubborn) })
    }

    @Test func twentyQuickQueriesEachCancellingTheLastLeaveNoProcess() async throws {
        let folder = try ScriptFolder()
        let source = CommandSource(command: """
            sleep 30 & echo $! > '\(folder.path)'/"child-$1"
            echo $$ > '\(folder.path)'/"shell-$1"
            wait
            """)
        let start = ContinuousClock.now
        var previous: Task<Void, Never>?
        for index in 0 ..< 20 {
            previous?.cancel()
            previous = Task {
                do { for try await _ in source.search("q\(index)", trigger: "@") {} } catch {}
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        // Starting twenty queries does not wait on any of them.
        #expect(ContinuousClock.now - start < .seconds(2))
        // The last one is running: give it time to start, then cancel it too.
        _ = await eventually { folder.pid("child-q19") != nil }
        previous?.cancel()

        var shells: [pid_t] = []
        var children: [pid_t] = []
        for index in 0 ..< 20 {
            // A query cancelled before its shell ran far enough wrote no file: nothing to check.
            if let pid = folder.pid("shell-q\(index)") { shells.append(pid) }
            if let pid = folder.pid("child-q\(index)") { children.append(pid) }
        }
        #expect(!shells.isEmpty)
        #expect(await eventually { shells.allSatisfy(isReaped) && children.allSatisfy(isGone) })
        // Files written late (by a shell killed right after writing) must be dead too.
        let lateShells = (0 ..< 20).compactMap { folder.pid("shell-q\($0)") }
        #expect(await eventually { lateShells.allSatisfy(isReaped) })
    }

    @Test func waitingCommandsDoNotHoldUpOtherTasks() async throws {
        // More hanging commands than the cooperative pool has threads: tasks must still run.
        let source = CommandSource(command: "sleep 30")
        let consumers = (0 ..< 12).map { index in
            Task { for try await _ in source.search("q\(index)", trigger: "@") {} }
        }
        try await Task.sleep(for: .milliseconds(200))
        let start = ContinuousClock.now
        let sum = await withTaskGroup(of: Int.self) { group in
            for value in 0 ..< 100 { group.addTask { value } }
            return await group.reduce(0, +)
        }
        #expect(sum == 4950)
        #expect(ContinuousClock.now - start < .seconds(1))
        for consumer in consumers { consumer.cancel() }
    }
}
