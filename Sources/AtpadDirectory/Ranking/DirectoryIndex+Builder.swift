import AtpadCore

extension DirectoryIndex {
    /// Folds names and handles into the flat arrays of a ``DirectoryIndex``, one entry at
    /// a time, so an index can be built while a file is still being read.
    struct Builder {
        /// Folded names and handles in bytes, each entry one, two or three a scalar (see
        /// ``FoldedUnits``).
        var names: [UInt8] = []
        var nameStarts: [UInt32] = [0]
        var words: [Int32] = []
        var wordStarts: [Int32] = [0]
        var handles: [UInt8] = []
        var handleStarts: [UInt32] = [0]
        var nameLengths: [Int32] = []
        /// One entry's folded name or handle, before it is stored in units.
        private var scratch: [UInt32] = []
        /// Stays empty: the index does not keep where folded scalars came from.
        private var noOrigins: [Int32] = []

        /// The number of entries added.
        var count: Int { nameLengths.count }

        /// Makes room for `entries` more entries whose names and handles take about
        /// `nameBytes` and `handleBytes` bytes of UTF-8 (most names fold to at most a byte
        /// of the index per byte of UTF-8; the few that do not grow the arrays). Growing these
        /// arrays by doubling copied, and the kernel zeroed, hundreds of megabytes for a
        /// million names.
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
            scratch.removeAll(keepingCapacity: true)
            let characters = Folding.append(name, to: &scratch, origins: &noOrigins, keepOrigins: false)
            scratch.withUnsafeBufferPointer { folded in
                var wordStart = -1
                for offset in 0 ..< folded.count {
                    if Folding.isWordSeparator(folded[offset]) {
                        if wordStart >= 0 {
                            words.append(Int32(truncatingIfNeeded: wordStart))
                            words.append(Int32(truncatingIfNeeded: offset))
                            wordStart = -1
                        }
                    } else if wordStart < 0 {
                        wordStart = offset
                    }
                }
                if wordStart >= 0 {
                    words.append(Int32(truncatingIfNeeded: wordStart))
                    words.append(Int32(truncatingIfNeeded: folded.count))
                }
            }
            nameStarts[nameStarts.count - 1] |= FoldedUnits.append(scratch[...], to: &names)
            precondition(names.count <= FoldedUnits.capacity, "directory too large to index")
            nameStarts.append(UInt32(names.count))
            wordStarts.append(Int32(words.count / 2))

            if let handle {
                scratch.removeAll(keepingCapacity: true)
                Folding.append(handle, to: &scratch, origins: &noOrigins, keepOrigins: false)
                // Handles are often written `@jdoe`; the query never includes the trigger.
                let dropped = scratch.first == 0x40 ? scratch.dropFirst() : scratch[...]
                handleStarts[handleStarts.count - 1] |= FoldedUnits.append(dropped, to: &handles)
            }
            precondition(handles.count <= FoldedUnits.capacity, "directory too large to index")
            handleStarts.append(UInt32(handles.count))
            nameLengths.append(Int32(clamping: characters ?? name.count))
        }
    }
}
