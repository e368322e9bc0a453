// SPDX-License-Identifier: MIT OR Apache-2.0
// The entropy layer's back ends under a hostile system: a forged
// /dev/urandom (a regular file bind-mounted over it in a private mount
// namespace), getrandom answering EINTR for ever or ENOSYS (seccomp
// filters), and the async-signal-safe read. Each such case runs in a forked
// child, which exits with a code the parent checks under a time limit.
// Those cases need Linux (mount namespaces, seccomp); elsewhere only the
// report and the signal-safe read are tested, and on Windows its two calls
// (ProcessPrng, BCryptGenRandom) and the chain's end after them.
#if defined(__linux__)
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif
#include <signal.h>
#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

extern "C" {
#include "entropy.h"
#include "shakerand.h"
#include "testing.h"
}

namespace {

#if defined(__linux__)
// Exit codes of the children.
constexpr int kPass = 0;
constexpr int kSkip = 77; // the namespace or the filter could not be made
constexpr int kTimedOut = -1;

// Runs body in a forked child; its exit code, or kTimedOut (the child is
// killed) after `seconds`.
int run_in_child(const std::function<int()> &body, int seconds = 10)
{
    const pid_t pid = fork();
    if (pid < 0)
        return -2;
    if (pid == 0)
        _exit(body());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    for (;;) {
        int status = 0;
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return kTimedOut;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

#define EXPECT_CHILD(code)                                                              \
    do {                                                                                \
        const int child_status_ = (code);                                               \
        if (child_status_ == kSkip)                                                     \
            GTEST_SKIP() << "cannot make a mount namespace or a seccomp filter here";   \
        EXPECT_NE(child_status_, kTimedOut) << "the child did not finish in time";      \
        EXPECT_EQ(child_status_, kPass) << "the child failed check " << child_status_;  \
    } while (0)

// A regular file of zeros, to be bind-mounted over /dev/urandom.
class ZeroFile {
  public:
    ZeroFile()
    {
        char name[] = "/tmp/shakerand-zeros-XXXXXX";
        const int fd = mkstemp(name);
        if (fd < 0)
            return;
        const std::vector<char> zeros(1 << 16, 0);
        ok_ = write(fd, zeros.data(), zeros.size()) == static_cast<ssize_t>(zeros.size());
        close(fd);
        path_ = name;
    }
    ~ZeroFile()
    {
        if (!path_.empty())
            unlink(path_.c_str());
    }
    const char *path() const { return ok_ ? path_.c_str() : nullptr; }

  private:
    std::string path_;
    bool ok_ = false;
};

// In the child: a private mount namespace in which /dev/urandom is `file`.
bool forge_urandom(const char *file)
{
    return file != nullptr && unshare(CLONE_NEWNS) == 0 &&
           mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
           mount(file, "/dev/urandom", nullptr, MS_BIND, nullptr) == 0;
}

// In the child: every listed system call fails with `error` from now on.
// (No architecture check: the test makes only native system calls.)
bool deny_syscalls(std::initializer_list<long> calls, int error)
{
    std::vector<sock_filter> f;
    f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
    for (long nr : calls) {
        f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(nr), 0, 1));
        f.push_back(BPF_STMT(BPF_RET | BPF_K,
                             SECCOMP_RET_ERRNO | (static_cast<unsigned>(error) & SECCOMP_RET_DATA)));
    }
    f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    sock_fprog prog{static_cast<unsigned short>(f.size()), f.data()};
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
           prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0;
}

shakerand_source_info os_source()
{
    std::vector<shakerand_source_info> v(shakerand_sources(nullptr, 0));
    shakerand_sources(v.data(), v.size());
    return v.at(0);
}
#endif

bool all_zero(const unsigned char *p, std::size_t n)
{
    for (std::size_t i = 0; i < n; i++)
        if (p[i] != 0)
            return false;
    return true;
}

class Entropy : public ::testing::Test {
  protected:
    void TearDown() override { shakerand_entropy_fault_for_testing("os", SHAKERAND_FAULT_NONE); }
};

// Every hardware back end of the table is in the report, in order, after
// the operating system.
TEST_F(Entropy, ReportListsTheSourceTable)
{
    std::vector<shakerand_source_info> v(shakerand_sources(nullptr, 0));
    ASSERT_EQ(v.size(), 1 + shakerand_hw_source_count);
    shakerand_sources(v.data(), v.size());
    EXPECT_STREQ(v[0].name, "os");
    for (std::size_t i = 0; i < shakerand_hw_source_count; i++) {
        EXPECT_STREQ(v[1 + i].name, shakerand_hw_sources[i]->name);
        EXPECT_STREQ(v[1 + i].method, shakerand_hw_sources[i]->name);
        EXPECT_EQ(v[1 + i].present, shakerand_hw_sources[i]->present());
    }
}

#if defined(__linux__)
// A regular file of zeros in place of /dev/urandom is not a seed: with
// getrandom and getentropy skipped, seeding fails and the report says why.
TEST_F(Entropy, ForgedUrandomIsRejected)
{
    ZeroFile zeros;
    EXPECT_CHILD(run_in_child([&] {
        if (shakerand_entropy_fault_for_testing("os", SHAKERAND_FAULT_NO_GETENTROPY) != 0)
            return 1;
        unsigned char out[32];
        if (shakerand_entropy(out, sizeof out) != SHAKERAND_OK)
            return 2; // the real device is accepted
        if (std::strcmp(os_source().method, "/dev/urandom") != 0)
            return 3;
        if (!forge_urandom(zeros.path()))
            return kSkip;
        std::memset(out, 0xAB, sizeof out);
        if (shakerand_entropy(out, sizeof out) != SHAKERAND_EENTROPY)
            return 4;
        for (unsigned char b : out)
            if (b != 0xAB)
                return 5; // out untouched
        const shakerand_source_info os = os_source();
        if (os.used || os.reason == nullptr)
            return 6;
        return kPass;
    }));
}

// getrandom and read() answering EINTR for ever (a seccomp filter can):
// seeding gives up with an error instead of spinning.
TEST_F(Entropy, EndlessEintrIsAnError)
{
    EXPECT_CHILD(run_in_child([] {
        if (shakerand_entropy_fault_for_testing("os", SHAKERAND_FAULT_NO_VDSO) != 0)
            return 1;
        if (!deny_syscalls({SYS_getrandom, SYS_read}, EINTR))
            return kSkip;
        unsigned char out[32];
        if (shakerand_entropy(out, sizeof out) != SHAKERAND_EENTROPY)
            return 2;
        const shakerand_source_info os = os_source();
        if (os.used || os.reason == nullptr)
            return 3;
        return kPass;
    }));
}
#endif

TEST(EntropyOsSignalSafe, FillsAndPreservesErrno)
{
    unsigned char a[1000], b[1000]; // past getrandom's 256-byte uninterruptible size
    errno = 12345;
    ASSERT_EQ(SHAKERAND_OK, shakerand_entropy_os_signal_safe(a, sizeof a));
    EXPECT_EQ(errno, 12345);
    ASSERT_EQ(SHAKERAND_OK, shakerand_entropy_os_signal_safe(b, sizeof b));
    EXPECT_NE(0, std::memcmp(a, b, sizeof a));
    EXPECT_FALSE(all_zero(a + 500, 500));
    EXPECT_EQ(SHAKERAND_OK, shakerand_entropy_os_signal_safe(nullptr, 0));
}

#if !defined(_WIN32) // no SIGUSR1, no sigaction
// From a signal handler, as the reentrancy work will call it.
volatile sig_atomic_t handler_status = -100;
unsigned char handler_bytes[64];
void draw_in_handler(int)
{
    handler_status = shakerand_entropy_os_signal_safe(handler_bytes, sizeof handler_bytes);
}

TEST(EntropyOsSignalSafe, WorksInASignalHandler)
{
    struct sigaction sa {};
    struct sigaction old {};
    sa.sa_handler = draw_in_handler;
    sigemptyset(&sa.sa_mask);
    ASSERT_EQ(0, sigaction(SIGUSR1, &sa, &old));
    ASSERT_EQ(0, raise(SIGUSR1));
    sigaction(SIGUSR1, &old, nullptr);
    EXPECT_EQ(handler_status, SHAKERAND_OK);
    EXPECT_FALSE(all_zero(handler_bytes, sizeof handler_bytes));
}
#endif

#if defined(_WIN32)
// Whether this Windows has ProcessPrng (Windows 10 and later; not Wine 8),
// asked the way the library asks: System32's bcryptprimitives.dll.
bool system_has_process_prng()
{
    HMODULE dll = LoadLibraryExW(L"bcryptprimitives.dll", nullptr, LOAD_LIBRARY_SEARCH_SYSTEM32);
    return dll != nullptr && GetProcAddress(dll, "ProcessPrng") != nullptr;
}

// The report names the call that answered: ProcessPrng where the system has
// it, else BCryptGenRandom; never a POSIX step.
TEST_F(Entropy, WindowsReportNamesTheCallThatAnswered)
{
    std::vector<shakerand_source_info> v(shakerand_sources(nullptr, 0));
    unsigned char out[32];
    ASSERT_EQ(SHAKERAND_OK, shakerand_entropy(out, sizeof out));
    shakerand_sources(v.data(), v.size());
    ASSERT_NE(v[0].method, nullptr);
    EXPECT_STREQ(v[0].method, system_has_process_prng() ? "ProcessPrng" : "BCryptGenRandom");
    std::printf("  the operating system's source here: %s\n", v[0].method);
}

// Each of the two calls on its own gives fresh bytes, and says so.
TEST_F(Entropy, WindowsEachCallAnswers)
{
    const char *method = nullptr, *reason = nullptr;
    unsigned char a[300] = {}, b[300] = {};
    ASSERT_EQ(0, shakerand_entropy_os_read(SHAKERAND_OS_VDSO, a, sizeof a, &method, &reason)) << reason;
    EXPECT_STREQ(method, system_has_process_prng() ? "ProcessPrng" : "BCryptGenRandom");
    ASSERT_EQ(0, shakerand_entropy_os_read(SHAKERAND_OS_GETRANDOM, b, sizeof b, &method, &reason)) << reason;
    EXPECT_STREQ(method, "BCryptGenRandom");
    EXPECT_NE(0, std::memcmp(a, b, sizeof a));
    EXPECT_FALSE(all_zero(a + 150, 150));
    EXPECT_FALSE(all_zero(b + 150, 150));
    // Through the fault layer, as the conditioner reads: BCryptGenRandom alone.
    ASSERT_EQ(0, shakerand_entropy_fault_for_testing("os", SHAKERAND_FAULT_NO_VDSO));
    ASSERT_EQ(SHAKERAND_OK, shakerand_entropy(a, 32));
    std::vector<shakerand_source_info> v(shakerand_sources(nullptr, 0));
    shakerand_sources(v.data(), v.size());
    EXPECT_STREQ(v[0].method, "BCryptGenRandom");
}

// Past the system's two calls there is nothing on Windows: no getentropy,
// no /dev/urandom. Started there, the chain fails and the bytes stay
// untouched; the conditioner then refuses to seed.
TEST_F(Entropy, WindowsNothingWeakerAfterTheSystemsCalls)
{
    for (const auto step : {SHAKERAND_OS_GETENTROPY, SHAKERAND_OS_URANDOM}) {
        const char *method = nullptr, *reason = nullptr;
        unsigned char out[32];
        std::memset(out, 0xAB, sizeof out);
        EXPECT_EQ(-1, shakerand_entropy_os_read(step, out, sizeof out, &method, &reason));
        EXPECT_EQ(method, nullptr);
        EXPECT_NE(reason, nullptr);
        for (unsigned char c : out)
            ASSERT_EQ(c, 0xAB);
    }
    ASSERT_EQ(0, shakerand_entropy_fault_for_testing("os", SHAKERAND_FAULT_NO_GETRANDOM));
    unsigned char seed[32];
    std::memset(seed, 0xAB, sizeof seed);
    EXPECT_EQ(SHAKERAND_EENTROPY, shakerand_entropy(seed, sizeof seed));
    for (unsigned char c : seed)
        ASSERT_EQ(c, 0xAB);
    std::vector<shakerand_source_info> v(shakerand_sources(nullptr, 0));
    shakerand_sources(v.data(), v.size());
    EXPECT_FALSE(v[0].used);
    EXPECT_NE(v[0].reason, nullptr);
}
#endif

#if defined(__linux__)
// A kernel without getrandom (ENOSYS): the checked /dev/urandom answers.
TEST(EntropyOsSignalSafe, FallsBackToUrandomWithoutGetrandom)
{
    EXPECT_CHILD(run_in_child([] {
        if (!deny_syscalls({SYS_getrandom}, ENOSYS))
            return kSkip;
        unsigned char a[64], b[64];
        if (shakerand_entropy_os_signal_safe(a, sizeof a) != SHAKERAND_OK ||
            shakerand_entropy_os_signal_safe(b, sizeof b) != SHAKERAND_OK)
            return 1;
        if (std::memcmp(a, b, sizeof a) == 0 || all_zero(a, sizeof a))
            return 2;
        return kPass;
    }));
}

// ... but not a forged one.
TEST(EntropyOsSignalSafe, RejectsForgedUrandomWithoutGetrandom)
{
    ZeroFile zeros;
    EXPECT_CHILD(run_in_child([&] {
        if (!forge_urandom(zeros.path()) || !deny_syscalls({SYS_getrandom}, ENOSYS))
            return kSkip;
        unsigned char out[32];
        return shakerand_entropy_os_signal_safe(out, sizeof out) == SHAKERAND_EENTROPY ? kPass : 1;
    }));
}

// EINTR for ever is a failure, not a spin; no fallback to /dev/urandom,
// since getrandom exists.
TEST(EntropyOsSignalSafe, EndlessEintrIsAnError)
{
    EXPECT_CHILD(run_in_child([] {
        if (!deny_syscalls({SYS_getrandom}, EINTR))
            return kSkip;
        unsigned char out[32];
        return shakerand_entropy_os_signal_safe(out, sizeof out) == SHAKERAND_EENTROPY ? kPass : 1;
    }));
}
#endif

} // namespace
