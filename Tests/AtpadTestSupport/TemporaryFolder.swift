import Foundation

/// A fresh folder under the system's temporary folder, removed by `remove()`.
public struct TemporaryFolder {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("atpad-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `bytes` to `name` in the folder and returns the file's path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    /// Writes `text` as UTF-8 to `name` in the folder and returns the file's path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    public func remove() {
        // Folders made unwritable by a test must be writable again to be removed.
        chmodAll(url.path)
        try? FileManager.default.removeItem(at: url)
    }

    private func chmodAll(_ path: String) {
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
        for child in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            var isFolder: ObjCBool = false
            let full = path + "/" + child
            if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), isFolder.boolValue { chmodAll(full) }
        }
    }
}

/// The error `body` throws, as a `T`, or nil (a test then fails on the nil).
public func thrown<T: Error>(_ type: T.Type = T.self, _ body: () throws -> Void) -> T? {
    do {
        try body()
        return nil
    } catch let error as T {
        return error
    } catch {
        return nil
    }
}
