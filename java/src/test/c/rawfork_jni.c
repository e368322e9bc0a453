/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Test-only JNI (never in the jar, nor in the library of C samplers): a raw fork of the JVM,
 * for ForkTest. Compiled by ForkTest itself with cc into target/raw-fork/; org.shakerand.RawFork
 * (a test class) declares the methods. The child of a raw fork runs no fork handler and has the
 * forking thread alone (no GC, compiler or VM thread), so it does only what a few draws need:
 * no malloc (another thread may have held its lock at the fork), and it leaves by the exit
 * system call itself, running no exit handler of the JVM's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jni.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child's pid in the parent, 0 in the child, -errno on failure. */
JNIEXPORT jint JNICALL Java_org_shakerand_RawFork_fork(JNIEnv *env, jclass c)
{
    (void)env;
    (void)c;
#if defined(SYS_fork)
    const long pid = syscall(SYS_fork);
#else /* aarch64: clone with the flags first, as fork makes it */
    const long pid = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
#endif
    return pid < 0 ? -errno : (jint)pid;
}

/* In the child: writes the words to the file (path: NUL-terminated bytes) and exits, status 0,
 * or 1 if the file could not be written. Never returns. */
JNIEXPORT void JNICALL Java_org_shakerand_RawFork_writeAndExit(JNIEnv *env, jclass c,
                                                               jbyteArray path, jlongArray words)
{
    (void)c;
    char name[4096];
    int64_t w[64];
    int status = 1;
    const jsize plen = (*env)->GetArrayLength(env, path);
    const jsize n = (*env)->GetArrayLength(env, words);
    if (plen > 0 && plen <= (jsize)sizeof name && n <= 64) {
        (*env)->GetByteArrayRegion(env, path, 0, plen, (jbyte *)name);
        (*env)->GetLongArrayRegion(env, words, 0, n, (jlong *)w);
        name[plen - 1] = '\0';
        const int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            const ssize_t len = (ssize_t)n * 8;
            status = write(fd, w, (size_t)len) == len ? 0 : 1;
            close(fd);
        }
    }
    for (;;)
        syscall(SYS_exit_group, status);
}

/* In the parent: the child's exit status, or -1 if it has not exited within the given seconds
 * (it is killed then). */
JNIEXPORT jint JNICALL Java_org_shakerand_RawFork_waitFor(JNIEnv *env, jclass c, jint pid,
                                                          jint seconds)
{
    (void)env;
    (void)c;
    int status;
    for (long i = 0; i < (long)seconds * 100; i++) {
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (r < 0)
            return -1;
        const struct timespec tick = {0, 10 * 1000 * 1000};
        nanosleep(&tick, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}
