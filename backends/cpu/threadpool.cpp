// The persistent pool. Workers stay awake briefly after a job (back-to-back ops such as the
// steps of softmax then find them awake) and then sleep on a condition variable, so an
// idle process costs nothing.
#include "threadpool.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "cpu_common.hpp"

namespace ember_cpu {

namespace {
ThreadPool* g_pool = nullptr;
int g_threads = 1;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}
constexpr uint32_t kClosedTicket = 0xffffffffu;  // a task index no job reaches (try_run)
constexpr int kSpinIters = 4000;  // ~20-90 us of pause: the caller's wait for its workers
// An idle worker pauses briefly, then yields the CPU between looks at the job counter
// until kIdleSpin has passed since its last task, then sleeps. Yielding, another thread
// that wants this core meanwhile (OpenBLAS's threads in the GEMV or GEMM that often follows
// an elementwise op, or any other library's) gets it at once; a pausing worker held it for
// its whole spin: a 1000 x 1000 float32 GEMV right after an add took 4x its time.
constexpr int kIdlePauses = 256;  // ~1-6 us
constexpr std::chrono::microseconds kIdleSpin{100};
}  // namespace

int configured_threads() {
    if (const char* s = std::getenv("EMBER_NUM_THREADS")) {
        char* end = nullptr;
        long v = std::strtol(s, &end, 10);
        if (end != s && *end == '\0' && v > 0) return v > 1024 ? 1024 : (int)v;
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

ThreadPool::ThreadPool(int nthreads)
    : nthreads_(nthreads < 1 ? 1 : nthreads), tid_(new std::atomic<int>[nthreads_]), cpu_(new std::atomic<int>[nthreads_]) {
    for (int i = 0; i < nthreads_; ++i) tid_[i] = 0, cpu_[i] = -1;
    for (int i = 1; i < nthreads_; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(m_);
        stop_.store(true);
        generation_.fetch_add(1);
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
}

void ThreadPool::work(uint32_t gen) {
    for (;;) {
        uint64_t t = ticket_.load(std::memory_order_acquire);
        if ((uint32_t)(t >> 32) != gen) return;
        int64_t idx = (int64_t)(uint32_t)t;
        if (idx >= ntasks_.load(std::memory_order_acquire)) return;
        if (!ticket_.compare_exchange_weak(t, t + 1, std::memory_order_acq_rel, std::memory_order_relaxed)) continue;
        fn_.load(std::memory_order_relaxed)(ctx_.load(std::memory_order_relaxed), idx);
        done_.fetch_add(1, std::memory_order_release);
    }
}

void ThreadPool::worker_loop(int id) {
    // Named, so that top -H, perf and /proc/<pid>/task tell the pool's threads from others'.
    char name[16];
    std::snprintf(name, sizeof name, "ember-cpu-%d", id);
    pthread_setname_np(pthread_self(), name);
    tid_[id].store((int)syscall(SYS_gettid), std::memory_order_relaxed);
    uint64_t seen = 0;
    for (;;) {
        uint64_t g = generation_.load(std::memory_order_acquire);
        for (int i = 0; g == seen && i < kIdlePauses; ++i) {
            cpu_relax();
            g = generation_.load(std::memory_order_acquire);
        }
        if (g == seen) {
            const auto until = std::chrono::steady_clock::now() + kIdleSpin;
            while ((g = generation_.load(std::memory_order_acquire)) == seen && std::chrono::steady_clock::now() < until)
                std::this_thread::yield();
        }
        if (g == seen) {
            std::unique_lock<std::mutex> lock(m_);
            cv_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
            g = generation_.load(std::memory_order_acquire);
        }
        seen = g;
        if (stop_.load()) return;
        cpu_[id].store(sched_getcpu(), std::memory_order_relaxed);
        work((uint32_t)g);
    }
}

bool ThreadPool::try_run(int64_t ntasks, void (*fn)(void*, int64_t), void* ctx) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    uint32_t gen = (uint32_t)(generation_.load(std::memory_order_relaxed) + 1);
    // The ticket is closed (the new generation, no task to claim) before the job's fields
    // change. A worker late for the last job could otherwise read its final ticket, then
    // this job's larger task count, and claim and run a task of this job with a
    // compare-and-swap on the old ticket before the new one was stored: that task ran
    // twice, its extra count let this job return early, and it ran with fields of two jobs
    // (sorts on 3 threads on the 2-CPU host went wrong or crashed; tests/pool_check.cpp).
    // Now a worker that reads the new task count (acquire, in work()) sees the closed
    // ticket, and its compare-and-swap on the old one fails.
    ticket_.store((uint64_t)gen << 32 | kClosedTicket, std::memory_order_relaxed);
    fn_.store(fn, std::memory_order_relaxed);
    ctx_.store(ctx, std::memory_order_relaxed);
    done_.store(0, std::memory_order_relaxed);
    ntasks_.store(ntasks, std::memory_order_release);
    // Task 0 is the caller's, claimed before the job is published: a worker spinning on
    // the generation took it first as often as not, so which core read which part of a
    // job's data (and kept it in its L2 for the next call on the same data) changed from
    // call to call.
    ticket_.store((uint64_t)gen << 32 | 1, std::memory_order_release);
    {
        std::lock_guard<std::mutex> lock(m_);
        generation_.fetch_add(1, std::memory_order_acq_rel);
    }
    cv_.notify_all();
    fn(ctx, 0);
    done_.fetch_add(1, std::memory_order_release);
    work(gen);
    // Wait for tasks a worker claimed. If it was preempted (a loaded machine), yield the
    // CPU to it instead of spinning through our time slice.
    for (int i = 0; done_.load(std::memory_order_acquire) < ntasks; ++i) {
        if (i < kSpinIters) cpu_relax();
        else std::this_thread::yield();
    }
    move_off_callers_cpu();
    return true;
}

// Linux sometimes leaves a worker on the caller's CPU: an idle worker yields in a loop for
// kIdleSpin after a job and stays runnable, and on the 2-vCPU Intel host it was not moved
// for tens of ms while the other CPU was idle. The caller then ran the worker's tasks too
// (it steals unclaimed ones) and every job ran on one thread: in 2-3 of 6 trials of 300
// float64 dots of 1e5, 14 us a dot instead of 6-7. After kSharedJobs such jobs in a row a
// worker is moved off: its affinity without the caller's CPU, then its own again at once,
// so the user's affinity stays as it was and nothing is pinned. At most once per kMoveGap.
void ThreadPool::move_off_callers_cpu() {
    constexpr int kSharedJobs = 4;
    constexpr std::chrono::milliseconds kMoveGap{2};
    const int here = sched_getcpu();
    int worker = 0;
    for (int i = 1; i < nthreads_ && !worker; ++i)
        if (cpu_[i].load(std::memory_order_relaxed) == here) worker = i;
    if (here < 0 || !worker) {
        shared_jobs_ = 0;
        return;
    }
    if (++shared_jobs_ < kSharedJobs) return;
    shared_jobs_ = 0;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_move_ < kMoveGap) return;
    last_move_ = now;
    const pid_t tid = tid_[worker].load(std::memory_order_relaxed);
    cpu_set_t allowed, others;
    if (tid <= 0 || sched_getaffinity(tid, sizeof allowed, &allowed) != 0 || !CPU_ISSET(here, &allowed) || CPU_COUNT(&allowed) < 2) return;
    others = allowed;
    CPU_CLR(here, &others);
    if (sched_setaffinity(tid, sizeof others, &others) == 0) sched_setaffinity(tid, sizeof allowed, &allowed);
}

int num_threads() { return g_threads; }

void pool_start(int nthreads) {
    g_threads = nthreads < 1 ? 1 : nthreads;
    if (g_threads > 1 && !g_pool) g_pool = new ThreadPool(g_threads);
}

void pool_stop() {
    delete g_pool;
    g_pool = nullptr;
    g_threads = 1;
}

void parallel_run(int64_t ntasks, void (*fn)(void*, int64_t), void* ctx) {
    if (ntasks <= 0) return;
    if (ntasks == 1 || !g_pool || !g_pool->try_run(ntasks, fn, ctx))
        for (int64_t t = 0; t < ntasks; ++t) fn(ctx, t);
}

}  // namespace ember_cpu
