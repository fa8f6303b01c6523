import Glibc

/// The one way atpad reads its environment: the whole of it as a dictionary, read straight
/// from `environ`, or one variable. Commands read it once at start-up and hand it down;
/// the models never read it themselves.
///
/// Foundation's `ProcessInfo.environment` builds the same dictionary at many times the
/// cost, which the editor would pay before its first frame.
public enum ProcessEnvironment {
    /// The value of variable `name`, nil when it is unset.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Every variable, by name (the first of a name wins, as `getenv`'s).
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        // `environ` is NULL after clearenv(3), though Swift imports it as never nil.
        guard unsafeBitCast(environ, to: UnsafeRawPointer?.self) != nil else { return result }
        var entry = environ
        while let pointer = entry.pointee {
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                            count: strlen(pointer))
            // NAME=VALUE; an entry without `=` is not a variable. The first one of a name wins, as getenv's.
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                if result[name] == nil {
                    result[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
                }
            }
            entry += 1
        }
        return result
    }
}
