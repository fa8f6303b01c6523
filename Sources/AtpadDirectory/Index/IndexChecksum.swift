/// The checksum of an index file: everything after its first 16 bytes (the magic and the
/// checksum itself), hashed in blocks of ``blockSize`` bytes.
///
/// Each block is hashed on its own (four multiply–xor lanes, which run at memory speed)
/// and the block hashes are folded in order, so a reader can check a file block by
/// block through one small buffer rather than mapping and touching all of it. Every step
/// of a lane is a bijection of its state, so any one changed word changes the checksum.
enum IndexChecksum {
    /// The bytes hashed as one block (a multiple of 32).
    static let blockSize = 1 << 20

    private static let k0: UInt64 = 0x9E37_79B9_7F4A_7C15
    private static let k1: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let k2: UInt64 = 0x1656_67B1_9E37_79F9
    private static let k3: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The hash of block number `index`, whose bytes are `block` (a multiple of 8 bytes).
    static func block(_ block: UnsafeRawBufferPointer, index: Int) -> UInt64 {
        let words = block.count / 8
        let seed = UInt64(truncatingIfNeeded: index) &* k3 &+ UInt64(truncatingIfNeeded: block.count)
        var a = seed ^ k0, b = seed ^ k1, c = seed ^ k2, d = seed ^ k3
        guard let base = block.baseAddress else { return mix(a) }
        var i = 0
        while i + 4 <= words {
            a = (a ^ base.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) &* k0
            b = (b ^ base.loadUnaligned(fromByteOffset: i * 8 + 8, as: UInt64.self)) &* k1
            c = (c ^ base.loadUnaligned(fromByteOffset: i * 8 + 16, as: UInt64.self)) &* k2
            d = (d ^ base.loadUnaligned(fromByteOffset: i * 8 + 24, as: UInt64.self)) &* k3
            i += 4
        }
        while i < words {
            a = (a ^ base.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) &* k1
            i += 1
        }
        return mix(a) ^ rotate(mix(b), 17) ^ rotate(mix(c), 31) ^ rotate(mix(d), 47)
    }

    /// Folds the next block's hash into the running checksum.
    static func fold(_ running: UInt64, _ blockHash: UInt64) -> UInt64 {
        mix((running ^ blockHash) &* k2 &+ k0)
    }

    /// The checksum's starting value.
    static let start: UInt64 = 0x6174_7061_6469_6478 // "atpadidx"

    private static func rotate(_ x: UInt64, _ by: UInt64) -> UInt64 { (x << by) | (x >> (64 - by)) }

    /// A final avalanche (from MurmurHash3's fmix64), so a change in any bit of a lane
    /// reaches every bit of its hash.
    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }
}
