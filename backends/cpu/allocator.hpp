// The caching allocator behind the cpu backend's alloc/free.
//
// - Every block is 64-byte aligned and preceded by a 64-byte header (size class, origin,
//   cache links), so free needs no lookup.
// - Sizes are rounded up to size classes (four per power of two, at least 64 bytes) and a
//   freed block is kept in its class's free list for reuse, most recently freed first.
// - Blocks of 1 MiB and more come from mmap, 2 MiB aligned, with madvise(MADV_HUGEPAGE)
//   (transparent huge pages in madvise mode): far fewer page faults on first touch.
// - The bytes held in the cache are bounded (EMBER_CPU_CACHE_LIMIT, bytes; default: a
//   quarter of physical memory, at most 4 GiB; 0 disables caching). When a freed block
//   would exceed the bound, the least recently cached blocks are released first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <atomic>
#include <mutex>

namespace ember_cpu {

struct BlockHeader;

// A test-and-set lock: the critical sections are a few pointer moves, and unlocking is a
// plain store (a mutex costs a second atomic instruction on every free and allocation).
class SpinLock {
public:
    void lock() {
        while (flag_.exchange(true, std::memory_order_acquire))
            while (flag_.load(std::memory_order_relaxed)) {
#if defined(__x86_64__) || defined(__i386__)
                __builtin_ia32_pause();
#endif
            }
    }
    void unlock() { flag_.store(false, std::memory_order_release); }

private:
    std::atomic<bool> flag_{false};
};

class CachingAllocator {
public:
    explicit CachingAllocator(uint64_t limit);
    void* allocate(size_t nbytes);  // nullptr when the system is out of memory
    void release(void* p);
    void trim();                    // releases every cached block
    void set_caching(bool on);      // off: frees go straight to the system (at shutdown)
    uint64_t allocated_bytes() const { return allocated_; }
    uint64_t cached_bytes() const { return cached_; }
    uint64_t limit_bytes() const { return limit_; }
    uint64_t reuse_count() const { return reuses_; }

    static size_t class_bytes(size_t nbytes, int* cls);
    static constexpr size_t kHeader = 64;
    static constexpr size_t kMmapThreshold = size_t(1) << 20;
    static constexpr int kClasses = 4 * 64;

private:
    void unlink(BlockHeader* h);
    void system_free(BlockHeader* h);

    SpinLock m_;
    uint64_t limit_;
    bool caching_ = true;
    uint64_t allocated_ = 0;  // bytes (by size class) of live blocks
    uint64_t cached_ = 0;     // bytes held in free lists
    uint64_t reuses_ = 0;
    BlockHeader* free_[kClasses] = {};
    BlockHeader* lru_head_ = nullptr;  // most recently cached
    BlockHeader* lru_tail_ = nullptr;  // evicted first
};

uint64_t default_cache_limit();

}  // namespace ember_cpu
