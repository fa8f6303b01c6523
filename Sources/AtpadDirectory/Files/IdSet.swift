/// The ids seen so far while merging directory files, to find duplicates.
///
/// Open addressing over a cheap hash of each id's UTF-8 bytes, rather than `Set<String>`:
/// the standard set's seeded SipHash and its growth were a fifth of loading a
/// million-person directory, and a duplicate check needs neither.
struct IdSet {
    /// Per slot: 0 when empty, else the index in `ids` plus one.
    private var slots: [Int32]
    /// Per slot: the id's hash, compared before the id itself.
    private var hashes: [UInt32]
    private var ids: [String] = []
    private var mask: Int

    /// An empty set with room for `capacity` ids before it grows.
    init(capacity: Int = 0) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
        hashes = Array(repeating: 0, count: size)
        mask = size - 1
        ids.reserveCapacity(capacity)
    }

    var count: Int { ids.count }

    /// Makes room for `total` ids in all.
    mutating func reserveCapacity(_ total: Int) {
        if total * 2 > slots.count { grow(to: total) }
    }

    /// Adds `id`; false when it was already there.
    mutating func insert(_ id: String) -> Bool {
        if (ids.count + 1) * 2 > slots.count { grow(to: ids.count + 1) }
        let hash = Self.hash(id)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 {
                ids.append(id)
                slots[slot] = Int32(truncatingIfNeeded: ids.count)
                hashes[slot] = hash
                return true
            }
            if hashes[slot] == hash, ids[Int(entry) - 1].utf8.elementsEqual(id.utf8) { return false }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow(to total: Int) {
        var size = slots.count
        while size < total * 2 { size <<= 1 }
        var slots = [Int32](repeating: 0, count: size)
        var hashes = [UInt32](repeating: 0, count: size)
        let mask = size - 1
        for old in self.slots.indices where self.slots[old] != 0 {
            var slot = Int(truncatingIfNeeded: self.hashes[old]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = self.slots[old]
            hashes[slot] = self.hashes[old]
        }
        self.slots = slots
        self.hashes = hashes
        self.mask = mask
        ids.reserveCapacity(total)
    }

    /// FNV-1a over the UTF-8 bytes, folded to 32 bits. Ids come from files the person
    /// chose, so there is no adversary to resist. Ids are compared byte for byte: they
    /// are opaque keys, so two spellings of `é` are two ids.
    static func hash(_ id: String) -> UInt32 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        let done: Void? = id.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        if done == nil {
            for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
