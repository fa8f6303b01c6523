import Glibc

/// Runs work on a thread of its own: the one way atpad starts a thread (directory loads,
/// worker sources, saves and posts that may block). A plain detached POSIX thread named
/// for `top` and `ps -L`; nothing joins it.
public enum BackgroundThread {
    /// Starts `body` on a new thread called `name` (cut to the 15 bytes Linux keeps).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        final class Work: @unchecked Sendable {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) { (self.name, self.body) = (name, body) }
        }
        let work = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
            _ = setThreadName(pthread_self(), String(decoding: work.name.utf8.prefix(15), as: UTF8.self))
            work.body()
            return nil
        }, work)
        if started == 0 {
            pthread_detach(thread)
        } else {
            // No thread to be had (a process at its limit): run the work here rather than lose it.
            Unmanaged<Work>.fromOpaque(work).takeRetainedValue().body()
        }
    }
}

/// glibc's `pthread_setname_np`, which its Swift module does not export (it is a GNU
/// extension).
@_silgen_name("pthread_setname_np")
private func setThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
