import AtpadCore

/// One entry's folded text as scalars, whatever its storage: what the matchers read.
protocol FoldedText {
    /// The number of scalars.
    var count: Int { get }
    subscript(_ offset: Int) -> UInt32 { get }
}

extension FoldedText {
    var isEmpty: Bool { count == 0 }
}

/// Text of one byte a scalar.
struct Text1: FoldedText {
    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count }
    @inline(__always) subscript(_ offset: Int) -> UInt32 { UInt32(bytes[offset]) }
}

/// Text of two bytes a scalar, low byte first.
struct Text2: FoldedText {
    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count >> 1 }
    @inline(__always) subscript(_ offset: Int) -> UInt32 {
        UInt32(bytes[2 * offset]) | UInt32(bytes[2 * offset + 1]) << 8
    }
}

/// Text of three bytes a scalar, low byte first.
struct Text3: FoldedText {
    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count / 3 }
    @inline(__always) subscript(_ offset: Int) -> UInt32 {
        UInt32(bytes[3 * offset]) | UInt32(bytes[3 * offset + 1]) << 8 | UInt32(bytes[3 * offset + 2]) << 16
    }
}

/// One entry's text, any width. Its subscript tests the width at every scalar; the hot
/// matchers are given ``Text1``, ``Text2`` or ``Text3`` instead (see ``Buffers``).
struct TextRef: FoldedText {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Bytes a scalar: 1, 2 or 3.
    let width: Int
    var count: Int { width == 1 ? bytes.count : width == 2 ? bytes.count >> 1 : bytes.count / 3 }
    var text1: Text1 { Text1(bytes: bytes) }
    var text2: Text2 { Text2(bytes: bytes) }
    var text3: Text3 { Text3(bytes: bytes) }
    subscript(_ offset: Int) -> UInt32 {
        width == 1 ? text1[offset] : width == 2 ? text2[offset] : text3[offset]
    }
}
