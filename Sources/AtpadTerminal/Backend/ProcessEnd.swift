import Glibc

/// How atpad's process ends, on every path: stdout and stderr flushed, the terminal given
/// back if a frame still holds it, then `_exit`. C's `exit` would first run the libraries'
/// exit handlers, and OpenSSL's (which libcurl uses) frees its state while a background
/// thread may still be in a transfer — a participants fetch, a post, a directory's
/// refresh — which crashed `atpad search --to slack:…` about once in 150 runs.
public enum ProcessEnd {
    /// Ends the process now with `status`.
    public static func now(_ status: Int32) -> Never {
        SignalTrap.restoreBeforeEnd()
        fflush(nil)
        _exit(status)
    }
}
