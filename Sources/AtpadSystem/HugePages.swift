import CMalloc
import Glibc

/// Backs the heap's next 64 MiB with 2 MiB pages where the kernel offers them on request
/// (transparent huge pages in `madvise` mode, the default of most distributions), for a
/// command that reads a whole comment, converts it and exits (`render`): converting
/// a 1 MB Markdown comment makes cmark-gfm allocate tens of megabytes, and faulting them in
/// one 4 KiB page at a time was a fifth of the run (BENCHMARKS.md, "`atpad render` to what
/// each service receives"). Where huge pages are off, or always on, nothing changes.
public enum HugePages {
    /// Makes glibc grow the heap 64 MiB at a time, grows it once, and marks what it got.
    public static func forHeap() {
        let pad = 64 << 20, huge = 2 << 20
        let low = UInt(bitPattern: sbrk(0))
        guard low != UInt.max, mallopt(M_TOP_PAD, Int32(pad)) == 1 else { return }
        // Blocks below the size glibc maps on their own come from the heap's top, so the
        // first that does not fit makes it grow by the pad at once.
        var probes: [UnsafeMutableRawPointer?] = []
        probes.reserveCapacity(64)
        while probes.count < 64, UInt(bitPattern: sbrk(0)) == low { probes.append(malloc(100_000)) }
        let high = UInt(bitPattern: sbrk(0))
        for probe in probes { free(probe) }
        let start = (low + UInt(huge) - 1) & ~UInt(huge - 1), end = high & ~UInt(huge - 1)
        guard end > start, let base = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(base, Int(end - start), MADV_HUGEPAGE)
    }
}
