// A small persistent thread pool: num_threads - 1 workers plus the calling thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ember_cpu {

class ThreadPool {
public:
    explicit ThreadPool(int nthreads);
    ~ThreadPool();
    int size() const { return nthreads_; }
    // Returns false (and runs nothing) if another caller is using the pool. ntasks >= 1;
    // the caller runs task 0 itself.
    bool try_run(int64_t ntasks, void (*fn)(void*, int64_t), void* ctx);

private:
    void worker_loop(int id);
    void work(uint32_t gen);
    void move_off_callers_cpu();

    int nthreads_;
    std::vector<std::thread> workers_;
    std::mutex busy_;  // one job at a time
    std::mutex m_;
    std::condition_variable cv_;
    std::atomic<uint64_t> generation_{0};
    std::atomic<bool> stop_{false};
    // The current job. Tasks are claimed through `ticket_` = (generation << 32) | next
    // task, so a worker that wakes late for a finished job can never claim a task of the
    // next one: its compare-and-swap fails on the generation.
    std::atomic<void (*)(void*, int64_t)> fn_{nullptr};
    std::atomic<void*> ctx_{nullptr};
    std::atomic<int64_t> ntasks_{0};
    std::atomic<uint64_t> ticket_{0};
    std::atomic<int64_t> done_{0};
    // Each worker's thread id and the CPU it last woke on for a job (-1: not yet), and the
    // jobs in a row in which one shared the caller's CPU (move_off_callers_cpu).
    std::unique_ptr<std::atomic<int>[]> tid_, cpu_;
    int shared_jobs_ = 0;
    std::chrono::steady_clock::time_point last_move_{};
};

// Thread count: EMBER_NUM_THREADS if set to a positive integer, else the CPUs this process
// may run on.
int configured_threads();
void pool_start(int nthreads);
void pool_stop();

}  // namespace ember_cpu
