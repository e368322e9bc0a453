// SPDX-License-Identifier: MIT OR Apache-2.0
#include "test_support.hpp"

#include <fstream>
#include <stdexcept>

extern "C" {
#include "policy.h"
}

#if defined(__linux__) || defined(__FreeBSD__)
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <mutex>
#include <thread>

extern "C" {
#include "testing.h"
}
#endif


namespace test {

bytes from_hex(const std::string &hex)
{
    if (hex.size() % 2 != 0)
        throw std::invalid_argument("odd hex length");
    bytes out(hex.size() / 2);
    for (std::size_t i = 0; i < out.size(); i++)
        out[i] = static_cast<std::uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    return out;
}

std::string to_hex(const std::uint8_t *p, std::size_t n)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    s.reserve(2 * n);
    for (std::size_t i = 0; i < n; i++) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

bytes ptn(std::size_t n)
{
    bytes out(n);
    for (std::size_t i = 0; i < n; i++)
        out[i] = static_cast<std::uint8_t>(i % 251);
    return out;
}

bytes system_output_of(const bytes &material, std::size_t n)
{
    shakerand_engine e;
    if (shakerand_system_key_engine_for_testing(&e, shakerand_system_kind(), material.data(), nullptr,
                                                0) != SHAKERAND_OK)
        throw std::runtime_error("shakerand_system_key_engine_for_testing failed");
    bytes out(n);
    shakerand_engine_fill(&e, out.data(), out.size());
    shakerand_engine_wipe(&e);
    return out;
}

nlohmann::json load_json(const std::string &relative_path)
{
    const std::string path = std::string(SHAKERAND_SOURCE_DIR) + "/" + relative_path;
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open " + path);
    return nlohmann::json::parse(in);
}

std::vector<const shakerand_kernel *> kernels()
{
    std::vector<const shakerand_kernel *> out;
    for (std::size_t i = 0; shakerand_kernel_list[i] != nullptr; i++)
        if (shakerand_kernel_find(shakerand_kernel_list[i]->name) != nullptr)
            out.push_back(shakerand_kernel_list[i]);
    return out;
}

#if defined(__linux__) || defined(__FreeBSD__)
namespace {

// The stopped thread and the forking one: steps reached, steps released.
std::mutex steps_mutex;
std::condition_variable steps_moved;
int steps_reached, steps_released;
bool holder_returned;
thread_local bool stops_at_steps;

void stop_at_step()
{
    if (!stops_at_steps)
        return;
    std::unique_lock<std::mutex> g(steps_mutex);
    const int step = ++steps_reached;
    steps_moved.notify_all();
    steps_moved.wait(g, [step] { return steps_released >= step; });
}

}  // namespace

pid_t raw_fork()
{
#if defined(SYS_fork)
    return static_cast<pid_t>(syscall(SYS_fork));
#else // aarch64 has clone only; with SIGCHLD alone it is a fork
    return static_cast<pid_t>(syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0));
#endif
}

namespace {

raw_fork_result run_raw_fork_child(const std::function<bytes()> &child)
{
    int fds[2];
    if (pipe(fds) != 0)
        return {false, {}};
    const pid_t pid = raw_fork();
    if (pid == 0) {
        close(fds[0]);
        alarm(10);
        const bytes b = child();
        const bool sent = b.size() <= 64 && write(fds[1], b.data(), b.size()) == static_cast<ssize_t>(b.size());
        // The exit system call itself: the C library's exit could wait for
        // a lock a thread of the parent held at the fork.
#if defined(SYS_exit_group)
        syscall(SYS_exit_group, sent ? 0 : 1);
#endif
        _exit(sent ? 0 : 1);
    }
    close(fds[1]);
    raw_fork_result r{false, {}};
    if (pid < 0) {
        close(fds[0]);
        return r;
    }
    std::uint8_t buf[64];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf - r.sent.size())) > 0)
        r.sent.insert(r.sent.end(), buf, buf + n);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    r.finished = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return r;
}

}  // namespace

void stop_this_thread_at_steps() { stops_at_steps = true; }

std::vector<raw_fork_result> raw_fork_at_every_step(const std::function<void()> &holder,
                                                     const std::function<bytes()> &child)
{
    steps_reached = steps_released = 0;
    holder_returned = false;
    shakerand_step_hook_for_testing = stop_at_step;
    std::thread t([&] {
        holder();
        stops_at_steps = false;
        std::lock_guard<std::mutex> g(steps_mutex);
        holder_returned = true;
        steps_moved.notify_all();
    });
    std::vector<raw_fork_result> results;
    for (int step = 1;; step++) {
        {
            std::unique_lock<std::mutex> g(steps_mutex);
            steps_moved.wait(g, [step] { return steps_reached >= step || holder_returned; });
            if (steps_reached < step)
                break;
        }
        results.push_back(run_raw_fork_child(child));
        std::lock_guard<std::mutex> g(steps_mutex);
        steps_released = step;
        steps_moved.notify_all();
    }
    t.join();
    shakerand_step_hook_for_testing = nullptr;
    return results;
}
#endif

}  // namespace test
