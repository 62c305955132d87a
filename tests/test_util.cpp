// The element-wise helpers of test_util.hpp, in a file of their own so that they are compiled
// optimised even where the tests are not (tests/CMakeLists.txt).
#include "test_util.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

std::vector<double> values(const ember_tensor_t* t) {
    T here, f;  // t may come from another context (a test comparing backends)
    if (ember_tensor_to(test_ctx(), t, here.out()) != EMBER_OK) return {};
    if (ember_astype(test_ctx(), here, EMBER_FLOAT64, f.out()) != EMBER_OK) return {};
    int64_t n = 0;
    ember_tensor_size(f, &n);
    std::vector<double> v((size_t)n);
    ember_tensor_read(f, v.data(), v.size() * sizeof(double));
    return v;
}

std::vector<std::complex<double>> values_c(const ember_tensor_t* t) {
    T here, f;
    if (ember_tensor_to(test_ctx(), t, here.out()) != EMBER_OK) return {};
    if (ember_astype(test_ctx(), here, EMBER_COMPLEX128, f.out()) != EMBER_OK) return {};
    int64_t n = 0;
    ember_tensor_size(f, &n);
    std::vector<std::complex<double>> v((size_t)n);
    ember_tensor_read(f, v.data(), v.size() * sizeof(v[0]));
    return v;
}

::testing::AssertionResult all_close(const std::vector<double>& got, const std::vector<double>& want, double rtol, double atol) {
    if (got.size() != want.size())
        return ::testing::AssertionFailure() << "size " << got.size() << " != " << want.size();
    for (size_t i = 0; i < got.size(); ++i)
        if (!close(got[i], want[i], rtol, atol))
            return ::testing::AssertionFailure() << "element " << i << ": got " << got[i] << ", want " << want[i];
    return ::testing::AssertionSuccess();
}


int spawn_test_child(const std::string& filter, const std::vector<std::string>& extra_env) {
    auto name_of = [](const std::string& entry) { return entry.substr(0, entry.find('=')); };
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        std::string entry = *e, name = name_of(entry);
        bool dropped = name == "GTEST_TOTAL_SHARDS" || name == "GTEST_SHARD_INDEX";
        for (auto& x : extra_env) dropped = dropped || name_of(x) == name;
        if (!dropped) env.push_back(entry);
    }
    env.insert(env.end(), extra_env.begin(), extra_env.end());
    std::vector<char*> envp;
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    // the executable's real path (under valgrind /proc/self/exe itself is the tool)
    char path[4096];
    ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
    std::string exe = len > 0 ? std::string(path, (size_t)len) : std::string("/proc/self/exe");
    std::string filter_arg = "--gtest_filter=" + filter, brief = "--gtest_brief=1";
    char* argv[] = {exe.data(), filter_arg.data(), brief.data(), nullptr};
    pid_t pid;
    if (posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, envp.data()) != 0) return -1;
    return pid;
}

int wait_test_child(int pid) {
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
