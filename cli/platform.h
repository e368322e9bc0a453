/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * What the CLI asks of the operating system, implemented once per system:
 * platform_posix.c (Linux, macOS, FreeBSD) and platform_windows.c. Paths
 * and arguments are UTF-8 everywhere; descriptors are the C runtime's.
 */
#ifndef SHAKERAND_CLI_PLATFORM_H
#define SHAKERAND_CLI_PLATFORM_H

#include <stddef.h>
#include <sys/types.h>

#if defined(_WIN32)
/* On Windows the program starts in wmain (platform_windows.c; link with
 * -municode), which passes the arguments on in UTF-8 to this, the CLI's
 * main renamed: a build that leaves out -municode fails to link rather than
 * run with arguments in the ANSI code page. */
#define main shakerand_main
int shakerand_main(int argc, char **argv);
#endif

/* First thing in main: descriptors 0, 1 and 2 open (on the null device if
 * they were closed, so that no file opened later takes their number), and
 * the standard streams as the CLI writes them: on POSIX SIGPIPE at its
 * default; on Windows no newline translation on any of the three, and
 * UTF-8 output on a console. May end the program with status 127. */
void platform_init(void);

/* Whether fd is a terminal (on Windows a console, not merely a character
 * device such as NUL). */
int platform_is_terminal(int fd);

/* Seconds on a clock that never goes back. */
double platform_monotonic_seconds(void);

/* Opens path for reading, or returns -1 with errno set. */
int platform_open_input(const char *path);

/* read(2) for any count; it may read less. */
ssize_t platform_read(int fd, void *buf, size_t n);

/* Identifies an open file, so that -o can tell the file it read: device
 * and inode (on Windows the volume's serial number and the file's index);
 * valid is 0 for a descriptor that has none (a pipe, a console). */
struct platform_file_id {
    int valid;
    unsigned long long device, index;
};

/* The identity of the file open on fd. */
void platform_file_id(int fd, struct platform_file_id *id);

/* Why platform_open_output refused or failed. */
enum output_refusal {
    OUTPUT_CANNOT_OPEN,     /* detail: the system's reason */
    OUTPUT_SYMBOLIC_LINK,   /* FILE itself is a link */
    OUTPUT_OTHER_USER,      /* owned by someone else */
    OUTPUT_HARD_LINKS,      /* a regular file with other names */
    OUTPUT_CANNOT_RESTRICT, /* could not be made owner-only; detail */
    OUTPUT_CANNOT_TRUNCATE, /* detail */
};

/* How platform_open_output makes a regular file owner-only, for messages:
 * "mode 0600" on POSIX. */
extern const char platform_owner_only[];

/* Opens FILE of -o for writing (it may receive a key). A regular file is
 * created readable and writable by its owner alone, or, if it exists and
 * is the user's own with no other name, made so and then emptied; a link
 * at FILE itself is refused; other kinds of file (devices, pipes) are
 * written as they are if they are the user's or the system's. The one
 * exception: an existing FILE that is the file same_as identifies (the
 * input of shuffle or pick, "-o f f" as shuf allows) keeps its mode (on
 * Windows its DACL), as it gets only its own lines back; every other check
 * holds for it. same_as may be NULL. Returns a descriptor, or -1 with
 * *refusal and *detail (a message, or NULL) set. */
int platform_open_output(const char *path, const struct platform_file_id *same_as,
                         enum output_refusal *refusal, const char **detail);

/* Gives a pipe a larger buffer where the system allows; best effort. */
void platform_grow_pipe(int fd);

/* Called when a write to fd fails: if fd is a pipe, whose reader must have
 * gone away, ends the program silently, as SIGPIPE does on POSIX (where
 * this is never reached: the signal comes first). */
void platform_exit_if_reader_gone(int fd);

#endif
