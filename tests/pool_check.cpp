// The cpu backend's thread pool (threadpool.cpp) under oversubscription: more threads than
// CPUs, so that the caller and the workers are preempted at any point of a job's
// publication. Jobs of alternating task counts (a job with more tasks than the one before
// is where a worker late for the old job could claim a task of the new one), each task
// counted in its own job's counters, which stay alive to the end: every task of every job
// must run exactly once, and before its job returns.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "cpu_common.hpp"
#include "threadpool.hpp"

namespace {
struct Job {
    std::atomic<int> runs[8];
    std::atomic<bool> returned{false};
    std::atomic<int> late{0};
};
void run_task(void* ctx, int64_t task) {
    Job* job = static_cast<Job*>(ctx);
    if (job->returned.load(std::memory_order_acquire)) job->late.fetch_add(1);
    job->runs[task].fetch_add(1);
}
}  // namespace

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 3;
    const int jobs = argc > 2 ? std::atoi(argv[2]) : 200000;
    ember_cpu::pool_start(threads);
    std::vector<std::unique_ptr<Job>> all;
    all.reserve((size_t)jobs);
    int64_t unfinished = 0, wrong = 0, late = 0;
    for (int j = 0; j < jobs; ++j) {
        all.push_back(std::make_unique<Job>());
        Job* job = all.back().get();
        for (auto& r : job->runs) r.store(0);
        const int64_t ntasks = j % 2 ? 7 : 2;
        ember_cpu::parallel_run(ntasks, run_task, job);
        for (int64_t t = 0; t < ntasks; ++t) unfinished += job->runs[t].load() != 1;
        job->returned.store(true, std::memory_order_release);
    }
    ember_cpu::pool_stop();  // joins the workers: every late run has happened
    for (int j = 0; j < jobs; ++j) {
        const int64_t ntasks = j % 2 ? 7 : 2;
        for (int64_t t = 0; t < 8; ++t) wrong += all[(size_t)j]->runs[t].load() != (t < ntasks ? 1 : 0);
        late += all[(size_t)j]->late.load();
    }
    std::printf("pool_check: %d threads, %d jobs: %lld tasks not run once when their job returned, %lld run other than once in all, "
                "%lld run after their job returned\n",
                threads, jobs, (long long)unfinished, (long long)wrong, (long long)late);
    return unfinished == 0 && wrong == 0 && late == 0 ? 0 : 1;
}
