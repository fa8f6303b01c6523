/// The row above the help bar: prompts, errors and notices, in the `status` role.
enum MessageLine {
    static func draw(_ message: String, into screen: inout Screen, row: Int) {
        screen.fill(row: row, role: .status)
        screen.put(VisibleText.fit(VisibleText.cells(message, role: .status), width: screen.width), row: row, column: 0)
    }
}
