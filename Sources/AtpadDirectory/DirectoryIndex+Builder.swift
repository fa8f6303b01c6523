import AtpadCore

extension DirectoryIndex {
    /// Folds names and handles into the flat arrays of a ``DirectoryIndex``, one entry at
    /// a time, so an index can be built while a file is still being read.
    struct Builder {
        var names: [UInt32] = []
        var nameStarts: [Int32] = [0]
        var words: [Int32] = []
        var wordStarts: [Int32] = [0]
        var handles: [UInt32] = []
        var handleStarts: [Int32] = [0]
        var nameLengths: [Int32] = []
        /// Stays empty: the index does not keep where folded scalars came from.
        private var noOrigins: [Int32] = []

        /// The number of entries added.
        var count: Int { nameLengths.count }

        /// Makes room for `entries` more entries whose names and handles take about
        /// `nameBytes` and `handleBytes` bytes of UTF-8 (a name folds to at most one scalar
        /// per byte). Growing these arrays by doubling copied, and the kernel zeroed,
        /// hundreds of megabytes for a million names.
        mutating func reserve(entries: Int, nameBytes: Int, handleBytes: Int) {
            names.reserveCapacity(names.count + nameBytes)
            words.reserveCapacity(words.count + entries * 6)
            handles.reserveCapacity(handles.count + handleBytes)
            nameStarts.reserveCapacity(nameStarts.count + entries)
            wordStarts.reserveCapacity(wordStarts.count + entries)
            handleStarts.reserveCapacity(handleStarts.count + entries)
            nameLengths.reserveCapacity(nameLengths.count + entries)
        }

        /// Adds the next entry.
        mutating func add(name: String, handle: String?) {
            let start = names.count
            let characters = Folding.append(name, to: &names, origins: &noOrigins, keepOrigins: false)
            names.withUnsafeBufferPointer { folded in
                var wordStart = -1
                for offset in start ..< folded.count {
                    if Folding.isWordSeparator(folded[offset]) {
                        if wordStart >= 0 {
                            words.append(Int32(truncatingIfNeeded: wordStart - start))
                            words.append(Int32(truncatingIfNeeded: offset - start))
                            wordStart = -1
                        }
                    } else if wordStart < 0 {
                        wordStart = offset
                    }
                }
                if wordStart >= 0 {
                    words.append(Int32(truncatingIfNeeded: wordStart - start))
                    words.append(Int32(truncatingIfNeeded: folded.count - start))
                }
            }
            precondition(names.count < Int(Int32.max), "directory too large to index")
            nameStarts.append(Int32(names.count))
            wordStarts.append(Int32(words.count / 2))

            if let handle {
                let handleStart = handles.count
                Folding.append(handle, to: &handles, origins: &noOrigins, keepOrigins: false)
                // Handles are often written `@jdoe`; the query never includes the trigger.
                if handles.count > handleStart, handles[handleStart] == 0x40 {
                    handles.remove(at: handleStart)
                }
            }
            precondition(handles.count < Int(Int32.max), "directory too large to index")
            handleStarts.append(Int32(handles.count))
            nameLengths.append(Int32(clamping: characters ?? name.count))
        }
    }
}
