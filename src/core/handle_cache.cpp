// Memory for tensor and storage objects, and the count of live tensors, kept per thread.
//
// A 1-element add through the C API creates and frees one tensor object and one storage
// object and moves the live-tensor count up and back down. Through malloc and one shared
// atomic counter that cost about 300 of its 1628 instructions and two locked ones; with
// them gone the call takes 0.85-0.89 of its time (bench/RESULTS.md, twenty-fourth session). Here each thread keeps a few
// freed objects for its next ones, and counts the tensors it creates and releases in a
// counter that only it writes (a plain load and store, no lock prefix);
// ember_live_tensor_count adds up the counters of the running threads and of those that
// have exited.
#include <pthread.h>

#include <new>

#include "internal.hpp"

namespace ember {

namespace {

#if defined(__SANITIZE_ADDRESS__)
// Under AddressSanitizer every object goes back to the allocator, so that a use of a
// released handle is reported instead of reading a recycled object.
constexpr int kKeep = 0;
#else
constexpr int kKeep = 8;
#endif

struct ThreadHandles {
    std::atomic<int64_t> live;  // written by its own thread only, read by counting threads
    int ntensors, nstorages;
    void* tensors[kKeep + 1];
    void* storages[kKeep + 1];
    ThreadHandles* prev;  // the list of registered threads, under g_threads_mutex
    ThreadHandles* next;
    bool registered;
};

// Zero-initialised and trivially destructible: its accesses need no guard.
thread_local ThreadHandles t_handles;

std::mutex g_threads_mutex;
ThreadHandles* g_threads = nullptr;
int64_t g_exited_live = 0;  // the counts of threads that have exited
pthread_key_t g_exit_key;

// Should the library be unloaded while threads it saw still run, their exit must not call
// into unmapped code.
struct ExitKeyDeleter {
    ~ExitKeyDeleter() {
        std::lock_guard<std::mutex> lock(g_threads_mutex);
        if (key_made) pthread_key_delete(g_exit_key);
    }
    bool key_made = false;
} g_exit_key_deleter;

// Runs when a registered thread exits: its count moves to g_exited_live and the objects it
// kept go back to the allocator.
void retire_thread(void* p) {
    auto* h = static_cast<ThreadHandles*>(p);
    {
        std::lock_guard<std::mutex> lock(g_threads_mutex);
        g_exited_live += h->live.load(std::memory_order_relaxed);
        h->live.store(0, std::memory_order_relaxed);
        (h->prev ? h->prev->next : g_threads) = h->next;
        if (h->next) h->next->prev = h->prev;
        h->prev = h->next = nullptr;
        h->registered = false;  // a later use on this thread (another exit hook) registers again
    }
    while (h->ntensors) ::operator delete(h->tensors[--h->ntensors]);
    while (h->nstorages) ::operator delete(h->storages[--h->nstorages]);
}

void register_thread(ThreadHandles& h) {
    std::lock_guard<std::mutex> lock(g_threads_mutex);
    if (!g_exit_key_deleter.key_made) g_exit_key_deleter.key_made = pthread_key_create(&g_exit_key, retire_thread) == 0;
    h.next = g_threads;
    if (g_threads) g_threads->prev = &h;
    g_threads = &h;
    h.registered = true;
    if (g_exit_key_deleter.key_made) pthread_setspecific(g_exit_key, &h);
}

ThreadHandles& this_thread() {
    ThreadHandles* h = &t_handles;
    // Pins the address in a register: GCC otherwise calls __tls_get_addr again for each use.
    __asm__("" : "+r"(h));
    if (__builtin_expect(!h->registered, 0)) register_thread(*h);
    return *h;
}

void add_live(ThreadHandles& h, int64_t delta) { h.live.store(h.live.load(std::memory_order_relaxed) + delta, std::memory_order_relaxed); }

void* take(void** kept, int& n, size_t bytes) { return n ? kept[--n] : ::operator new(bytes); }
void give_back(void** kept, int& n, void* p) {
    if (n < kKeep)
        kept[n++] = p;
    else
        ::operator delete(p);
}

}  // namespace

ember_tensor* new_tensor() {
    ThreadHandles& h = this_thread();
    void* p = take(h.tensors, h.ntensors, sizeof(ember_tensor));
    auto* t = new (p) ember_tensor();
    add_live(h, 1);
    return t;
}

void delete_tensor(ember_tensor* t) {
    ThreadHandles& h = this_thread();
    t->~ember_tensor();
    give_back(h.tensors, h.ntensors, t);
    add_live(h, -1);
}

Storage* new_storage() {
    ThreadHandles& h = this_thread();
    return new (take(h.storages, h.nstorages, sizeof(Storage))) Storage();
}

void delete_storage(Storage* s) {
    ThreadHandles& h = this_thread();
    s->~Storage();
    give_back(h.storages, h.nstorages, s);
}

int64_t live_tensor_count() {
    std::lock_guard<std::mutex> lock(g_threads_mutex);
    int64_t n = g_exited_live;
    for (ThreadHandles* h = g_threads; h; h = h->next) n += h->live.load(std::memory_order_relaxed);
    return n;
}

}  // namespace ember
