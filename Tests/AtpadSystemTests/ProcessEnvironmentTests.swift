@testable import AtpadSystem
import AtpadTestSupport
import Foundation
import Testing

@Suite("process environment")
struct ProcessEnvironmentTests {
    @Test func readsWhatFoundationReads() {
        setenv("ATPAD_TEST_VALUE", "a=b ü", 1)
        defer { unsetenv("ATPAD_TEST_VALUE") }
        let ours = ProcessEnvironment.current()
        #expect(ours["ATPAD_TEST_VALUE"] == "a=b ü")
        #expect(ours == ProcessInfo.processInfo.environment)
    }
}
