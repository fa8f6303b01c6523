@testable import AtpadApp
import AtpadCore
import AtpadTerminal

/// A terminal for tests of the runtime: it hands out scripted batches of input, records
/// every screen drawn and every clipboard write, and ends input when the script runs out.
final class FakeTerminal: TerminalIO {
    var hasColors = false
    var colorCount = 0
    var rows: Int
    var columns: Int
    private var batches: [[InputEvent]]
    private(set) var screens: [Screen] = []
    private(set) var clipboard: [String] = []
    private(set) var started = false
    private(set) var stopped = false
    private(set) var suspensions = 0
    /// Called with the number of batches read so far, before each read (to change a file
    /// behind the editor's back between two keys).
    var beforeRead: ((Int) -> Void)?
    private var reads = 0

    init(rows: Int = 24, columns: Int = 80, batches: [[InputEvent]]) {
        self.rows = rows
        self.columns = columns
        self.batches = batches
    }

    /// One batch per key of a key script.
    convenience init(rows: Int = 24, columns: Int = 80, keys: String) throws {
        self.init(rows: rows, columns: columns, batches: try KeyScript.parse(keys).map { [.key($0)] })
    }

    func start(ttyPath: String?) throws { started = true }
    func stop() { stopped = true }
    func suspend() { suspensions += 1 }
    func size() -> (rows: Int, columns: Int) { (rows, columns) }
    func takeSignal() -> Int32? { nil }
    func setClipboard(_ text: String) { clipboard.append(text) }

    func readEvents(timeoutMilliseconds: Int, wakeDescriptor: Int32?) -> [InputEvent] {
        beforeRead?(reads)
        reads += 1
        return batches.isEmpty ? [.endOfInput] : batches.removeFirst()
    }

    func draw(_ screen: Screen, damage: ScreenDamage, styles: [Role: Style], colors: Bool) {
        screens.append(screen)
    }

    /// The last screen's rows as text.
    var lastScreen: [String] { screens.last?.lines ?? [] }
}
