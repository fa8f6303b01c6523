#include <stddef.h>

/// Bytes the C allocator has handed out and not taken back (glibc's mallinfo2), for the
/// memory benchmark: unlike RSS it is not blurred by freed pages being reused.
size_t atpad_heap_in_use(void);
