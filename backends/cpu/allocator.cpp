#include "allocator.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <new>

// Under AddressSanitizer a cached block and the slack after a tensor's bytes (up to a
// quarter of its size class) are poisoned, so that the sanitized suite reports an access
// past a tensor's end or to a released tensor, as it does for malloc'ed memory: ASan sees
// the allocator's mmap and aligned_alloc blocks only as a whole.
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define EMBER_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define EMBER_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define EMBER_POISON(p, n) ((void)(p), (void)(n))
#define EMBER_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace ember_cpu {

struct alignas(64) BlockHeader {
    uint64_t magic;
    uint64_t bytes;      // usable bytes (the size class)
    void* base;          // what the system gave (malloc pointer or mmap start)
    uint64_t map_bytes;  // mmap length, 0 for malloc blocks
    int32_t cls;
    int32_t pad;
    BlockHeader* next;   // class free list
    BlockHeader* lru_prev;
    BlockHeader* lru_next;
};
static_assert(sizeof(BlockHeader) == CachingAllocator::kHeader, "header must be one cache line");

namespace {
constexpr uint64_t kMagic = 0x454d4245524350ull;  // "EMBERCP"
constexpr size_t kHuge = size_t(2) << 20;

inline BlockHeader* header_of(void* p) { return reinterpret_cast<BlockHeader*>(static_cast<char*>(p) - CachingAllocator::kHeader); }
}  // namespace

uint64_t default_cache_limit() {
    if (const char* s = std::getenv("EMBER_CPU_CACHE_LIMIT")) {
        char* end = nullptr;
        unsigned long long v = std::strtoull(s, &end, 10);
        if (end != s && *end == '\0') return v;
    }
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t phys = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    uint64_t lim = phys / 4;
    const uint64_t cap = uint64_t(4) << 30;
    return lim == 0 || lim > cap ? cap : lim;
}

CachingAllocator::CachingAllocator(uint64_t limit) : limit_(limit) {}

// Four classes per power of two: 64, 80, 96, 112, 128, 160, ... (at most 25% slack).
size_t CachingAllocator::class_bytes(size_t n, int* cls) {
    if (n <= 64) {
        *cls = 0;
        return 64;
    }
    int k = 63 - __builtin_clzll((unsigned long long)(n - 1));  // 2**k < n <= 2**(k+1)
    size_t step = size_t(1) << (k - 2);
    size_t q = (n + step - 1) / step;  // in 5..8
    *cls = (k - 5) * 4 + (int)(q - 4);  // k >= 6 here; q-4 in 1..4
    return q * step;
}

void* CachingAllocator::allocate(size_t nbytes) {
    int cls;
    if (nbytes > (size_t(1) << 60)) return nullptr;
    size_t bytes = class_bytes(nbytes, &cls);
    BlockHeader* h = nullptr;
    {
        std::lock_guard<SpinLock> lock(m_);
        if ((h = free_[cls])) {
            free_[cls] = h->next;
            unlink(h);
            cached_ -= h->bytes;
            allocated_ += h->bytes;
            ++reuses_;
        }
    }
    if (h) {
        char* p = reinterpret_cast<char*>(h) + kHeader;
        EMBER_UNPOISON(p, nbytes);
        return p;
    }
    void* base;
    uint64_t map_bytes = 0;
    if (bytes + kHeader >= kMmapThreshold) {
        // Over-map by one huge page so the block can start on a 2 MiB boundary.
        map_bytes = bytes + kHeader + kHuge;
        base = mmap(nullptr, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED) {
            trim();
            base = mmap(nullptr, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (base == MAP_FAILED) return nullptr;
        }
        uintptr_t start = ((uintptr_t)base + kHuge - 1) & ~(uintptr_t)(kHuge - 1);
        h = reinterpret_cast<BlockHeader*>(start);
#ifdef MADV_HUGEPAGE
        if (bytes >= kHuge) madvise(reinterpret_cast<void*>(start), bytes + kHeader, MADV_HUGEPAGE);
#endif
    } else {
        // aligned_alloc requires a size that is a multiple of the alignment.
        const size_t padded = (bytes + kHeader + 63) & ~size_t(63);
        base = std::aligned_alloc(64, padded);
        if (!base) {
            trim();
            base = std::aligned_alloc(64, padded);
            if (!base) return nullptr;
        }
        h = static_cast<BlockHeader*>(base);
    }
    h->magic = kMagic;
    h->bytes = bytes;
    h->base = base;
    h->map_bytes = map_bytes;
    h->cls = cls;
    h->next = h->lru_prev = h->lru_next = nullptr;
    {
        std::lock_guard<SpinLock> lock(m_);
        allocated_ += bytes;
    }
    char* p = reinterpret_cast<char*>(h) + kHeader;
    EMBER_POISON(p + nbytes, bytes - nbytes);
    return p;
}

void CachingAllocator::unlink(BlockHeader* h) {
    if (h->lru_prev) h->lru_prev->lru_next = h->lru_next;
    else lru_head_ = h->lru_next;
    if (h->lru_next) h->lru_next->lru_prev = h->lru_prev;
    else lru_tail_ = h->lru_prev;
    h->lru_prev = h->lru_next = nullptr;
}

void CachingAllocator::system_free(BlockHeader* h) {
    h->magic = 0;
    EMBER_UNPOISON(reinterpret_cast<char*>(h) + kHeader, h->bytes);
    if (h->map_bytes) munmap(h->base, h->map_bytes);
    else std::free(h->base);
}

void CachingAllocator::release(void* p) {
    if (!p) return;
    BlockHeader* h = header_of(p);
    if (h->magic != kMagic) std::abort();  // not ours, or freed twice: fail loudly
    EMBER_POISON(p, h->bytes);
    BlockHeader* evicted = nullptr;  // chained through `next`, freed outside the lock
    bool keep;
    {
        std::lock_guard<SpinLock> lock(m_);
        allocated_ -= h->bytes;
        keep = caching_ && h->bytes <= limit_;
        if (keep) {
            // Make room: the least recently cached blocks go first.
            while (cached_ + h->bytes > limit_ && lru_tail_) {
                BlockHeader* v = lru_tail_;
                unlink(v);
                BlockHeader** pp = &free_[v->cls];
                while (*pp != v) pp = &(*pp)->next;
                *pp = v->next;
                cached_ -= v->bytes;
                v->next = evicted;
                evicted = v;
            }
            h->next = free_[h->cls];
            free_[h->cls] = h;
            h->lru_prev = nullptr;
            h->lru_next = lru_head_;
            if (lru_head_) lru_head_->lru_prev = h;
            lru_head_ = h;
            if (!lru_tail_) lru_tail_ = h;
            cached_ += h->bytes;
        }
    }
    while (evicted) {
        BlockHeader* n = evicted->next;
        system_free(evicted);
        evicted = n;
    }
    if (!keep) system_free(h);
}

void CachingAllocator::trim() {
    BlockHeader* all = nullptr;
    {
        std::lock_guard<SpinLock> lock(m_);
        for (auto& head : free_) {
            while (head) {
                BlockHeader* h = head;
                head = h->next;
                h->next = all;
                all = h;
            }
        }
        lru_head_ = lru_tail_ = nullptr;
        cached_ = 0;
    }
    while (all) {
        BlockHeader* n = all->next;
        system_free(all);
        all = n;
    }
}

void CachingAllocator::set_caching(bool on) {
    {
        std::lock_guard<SpinLock> lock(m_);
        caching_ = on;
    }
    if (!on) trim();
}

}  // namespace ember_cpu
