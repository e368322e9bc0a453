/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The CLI on Windows (MinGW-w64): see platform.h. Arguments arrive in
 * UTF-16 through wmain and go on in UTF-8; paths go back to UTF-16 for the
 * system. The standard streams are binary, so output is byte for byte what
 * it is on POSIX. -o creates a file whose DACL grants the user alone (with
 * inheritance off), the counterpart of mode 0600.
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <aclapi.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

const char platform_owner_only[] = "owner-only (an ACL for your account alone)";

/* ---- text --------------------------------------------------------------- */

/* UTF-16 to UTF-8 in new memory; NULL for a lone surrogate (no UTF-8 for
 * it: a lossy copy could name another file) or no memory. */
static char *to_utf8(const wchar_t *s)
{
    const int n = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, s, -1, NULL, 0, NULL, NULL);
    if (n <= 0)
        return NULL;
    char *out = malloc((size_t)n);
    if (out != NULL &&
        WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, s, -1, out, n, NULL, NULL) != n) {
        free(out);
        out = NULL;
    }
    return out;
}

/* UTF-8 to UTF-16 in new memory; NULL with errno set if s is not UTF-8. */
static wchar_t *to_utf16(const char *s)
{
    const int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    if (n <= 0) {
        errno = EILSEQ;
        return NULL;
    }
    wchar_t *out = malloc((size_t)n * sizeof *out);
    if (out == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, out, n);
    return out;
}

/* The system's text for error, in UTF-8 without the final period and line
 * end, in a buffer of its own. */
static const char *system_message(DWORD error)
{
    static char text[512];
    wchar_t wide[256];
    DWORD n = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
                             error, 0, wide, sizeof wide / sizeof *wide, NULL);
    while (n > 0 && (wide[n - 1] == L'\r' || wide[n - 1] == L'\n' || wide[n - 1] == L'.' ||
                     wide[n - 1] == L' '))
        n--;
    const int len = n == 0 ? 0
                           : WideCharToMultiByte(CP_UTF8, 0, wide, (int)n, text,
                                                 (int)sizeof text - 1, NULL, NULL);
    if (len <= 0)
        snprintf(text, sizeof text, "Windows error %lu", (unsigned long)error);
    else
        text[len] = '\0';
    return text;
}

/* ---- start-up ----------------------------------------------------------- */

/* The C runtime splits the command line by the same rules as for main; only
 * the encoding differs. (A UTF-8 activeCodePage manifest would need Windows
 * 10 1903 or later and leave older systems with the ANSI code page.) */
int wmain(int argc, wchar_t **wargv)
{
    char **argv = calloc((size_t)argc + 1, sizeof *argv);
    for (int i = 0; argv != NULL && i < argc; i++) {
        if ((argv[i] = to_utf8(wargv[i])) == NULL) {
            const int invalid = GetLastError() == ERROR_NO_UNICODE_TRANSLATION;
            _setmode(_fileno(stderr), _O_BINARY);
            if (invalid) {
                fprintf(stderr, "shakerand: argument %d is not valid Unicode (a lone surrogate)\n",
                        i);
                return 2;
            }
            argv = NULL;
        }
    }
    if (argv == NULL) {
        _setmode(_fileno(stderr), _O_BINARY);
        fputs("shakerand: out of memory\n", stderr);
        return 1;
    }
    return shakerand_main(argc, argv);
}

/* Descriptors 0-2 without a handle (a program started with no console and
 * no redirection) are put on NUL: otherwise the -o file could be given one
 * of their numbers and receive the diagnostics. */
static void open_standard_descriptors(void)
{
    static const DWORD which[] = {STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE};
    for (int fd = 0; fd <= 2; fd++) {
        const HANDLE h = GetStdHandle(which[fd]);
        if (h != NULL && h != INVALID_HANDLE_VALUE)
            continue;
        const int nul = _open("NUL", _O_RDWR | _O_BINARY);
        if (nul < 0 || (nul != fd && _dup2(nul, fd) != 0))
            _exit(127);
        if (nul != fd)
            _close(nul);
    }
}

static UINT console_code_page;

static void restore_console_code_page(void) { SetConsoleOutputCP(console_code_page); }

void platform_init(void)
{
    open_standard_descriptors();
    /* Text mode would write "\r\n" for each '\n' (corrupting raw bytes),
     * end input at the first ^Z and drop the '\r' of "\r\n" on reading. */
    for (int fd = 0; fd <= 2; fd++)
        _setmode(fd, _O_BINARY);
    /* The CLI writes UTF-8 (word lists, file names in messages); a console
     * shows it as such only with code page 65001, which is restored on exit
     * since the console outlives the program. */
    if (platform_is_terminal(1) || platform_is_terminal(2)) {
        console_code_page = GetConsoleOutputCP();
        if (console_code_page != 0 && console_code_page != CP_UTF8 && SetConsoleOutputCP(CP_UTF8))
            atexit(restore_console_code_page);
    }
}

int platform_is_terminal(int fd)
{
    /* _isatty is true for every character device, NUL included. */
    const intptr_t h = _get_osfhandle(fd);
    DWORD mode;
    return h != -1 && h != -2 && GetConsoleMode((HANDLE)h, &mode);
}

double platform_monotonic_seconds(void)
{
    LARGE_INTEGER now, frequency;
    QueryPerformanceCounter(&now);
    QueryPerformanceFrequency(&frequency);
    return (double)now.QuadPart / (double)frequency.QuadPart;
}

int platform_open_input(const char *path)
{
    wchar_t *wide = to_utf16(path);
    if (wide == NULL)
        return -1;
    const int fd = _wopen(wide, _O_RDONLY | _O_BINARY | _O_NOINHERIT);
    free(wide);
    return fd;
}

/* The C runtime's read takes an unsigned int and returns an int. */
ssize_t platform_read(int fd, void *buf, size_t n)
{
    return _read(fd, buf, n < INT_MAX ? (unsigned)n : INT_MAX);
}

/* ---- -o FILE ------------------------------------------------------------ */

void platform_file_id(int fd, struct platform_file_id *id)
{
    const intptr_t h = _get_osfhandle(fd);
    BY_HANDLE_FILE_INFORMATION info;
    id->valid = h != -1 && h != -2 && GetFileType((HANDLE)h) == FILE_TYPE_DISK &&
                GetFileInformationByHandle((HANDLE)h, &info);
    id->device = id->valid ? info.dwVolumeSerialNumber : 0;
    id->index = id->valid ? (unsigned long long)info.nFileIndexHigh << 32 | info.nFileIndexLow : 0;
}

/* The SIDs of the user and of the owner the token gives new objects (the
 * user, or the Administrators group for an elevated administrator): a file
 * is the user's own if either owns it. Both point into static storage. */
static int token_sids(PSID *user, PSID *owner)
{
    static union {
        TOKEN_USER info;
        BYTE bytes[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
    } user_info;
    static union {
        TOKEN_OWNER info;
        BYTE bytes[sizeof(TOKEN_OWNER) + SECURITY_MAX_SID_SIZE];
    } owner_info;
    HANDLE token;
    DWORD size;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token))
        return 0;
    const BOOL ok = GetTokenInformation(token, TokenUser, &user_info, sizeof user_info, &size) &&
                    GetTokenInformation(token, TokenOwner, &owner_info, sizeof owner_info, &size);
    CloseHandle(token);
    *user = user_info.info.User.Sid;
    *owner = owner_info.info.Owner;
    return ok;
}

/* The DACL of a file of the user's alone: one ACE granting user full
 * access, inherited by nothing. */
struct owner_only_acl {
    union {
        ACL acl;
        BYTE bytes[sizeof(ACL) + sizeof(ACCESS_ALLOWED_ACE) + SECURITY_MAX_SID_SIZE];
    } u;
};

static int owner_only_acl(PSID user, struct owner_only_acl *out)
{
    return InitializeAcl(&out->u.acl, sizeof out->u, ACL_REVISION) &&
           AddAccessAllowedAce(&out->u.acl, ACL_REVISION, FILE_ALL_ACCESS, user);
}

/* Whether the object behind h is owned by the user (or the token's owner),
 * or if system_too by LocalSystem, the counterpart of root. 0 with the
 * last error set if the owner cannot be read. */
static int owned_by_user(HANDLE h, PSID user, PSID token_owner, int system_too, int *known)
{
    PSID owner = NULL;
    PSECURITY_DESCRIPTOR sd = NULL;
    const DWORD error = GetSecurityInfo(h, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION, &owner, NULL,
                                        NULL, NULL, &sd);
    *known = error == ERROR_SUCCESS && owner != NULL;
    const int mine = *known && (EqualSid(owner, user) || EqualSid(owner, token_owner) ||
                                (system_too && IsWellKnownSid(owner, WinLocalSystemSid)));
    if (sd != NULL)
        LocalFree(sd);
    SetLastError(error);
    return mine;
}

static int refuse(HANDLE h, enum output_refusal why, DWORD error, enum output_refusal *refusal,
                  const char **detail)
{
    if (h != INVALID_HANDLE_VALUE)
        CloseHandle(h);
    *refusal = why;
    *detail = error != ERROR_SUCCESS ? system_message(error) : NULL;
    return -1;
}

/* As platform.h says, with these Windows particulars:
 * - a new file gets its DACL from CreateFileW itself, so there is no moment
 *   at which it has the folder's inherited one (a handle opened then would
 *   keep its access); SE_DACL_PROTECTED stops later inheritance;
 * - an existing regular file of the user's, with no other hard link, gets
 *   the same descriptor before it is emptied;
 * - FILE_FLAG_OPEN_REPARSE_POINT opens a symbolic link (or junction) at
 *   FILE itself, which is then refused without following it;
 * - a named pipe must be the user's or LocalSystem's (one another user
 *   created would hand that user the key); character devices (NUL, CON)
 *   are written as they are;
 * - the input file (same_as) keeps its DACL: see platform.h. */
int platform_open_output(const char *path, const struct platform_file_id *same_as,
                         enum output_refusal *refusal, const char **detail)
{
    wchar_t *wide = to_utf16(path);
    if (wide == NULL) {
        *refusal = OUTPUT_CANNOT_OPEN;
        *detail = strerror(errno);
        return -1;
    }
    PSID user, token_owner;
    struct owner_only_acl acl;
    SECURITY_DESCRIPTOR sd;
    if (!token_sids(&user, &token_owner) || !owner_only_acl(user, &acl) ||
        !InitializeSecurityDescriptor(&sd, SECURITY_DESCRIPTOR_REVISION) ||
        !SetSecurityDescriptorDacl(&sd, TRUE, &acl.u.acl, FALSE) ||
        !SetSecurityDescriptorControl(&sd, SE_DACL_PROTECTED, SE_DACL_PROTECTED)) {
        free(wide);
        return refuse(INVALID_HANDLE_VALUE, OUTPUT_CANNOT_RESTRICT, GetLastError(), refusal,
                      detail);
    }
    SECURITY_ATTRIBUTES attributes = {sizeof attributes, &sd, FALSE};
    const DWORD share = FILE_SHARE_READ | FILE_SHARE_WRITE;
    const DWORD flags = FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT;
    HANDLE h = CreateFileW(wide, GENERIC_WRITE | READ_CONTROL | WRITE_DAC, share, &attributes,
                           OPEN_ALWAYS, flags, NULL);
    DWORD error = GetLastError();
    const int created = h != INVALID_HANDLE_VALUE && error != ERROR_ALREADY_EXISTS;
    if (h == INVALID_HANDLE_VALUE && error == ERROR_ACCESS_DENIED) {
        /* No right to change the DACL: another user's file, or a device or
         * pipe that grants writing only. Opened without, to tell which. */
        h = CreateFileW(wide, GENERIC_WRITE | READ_CONTROL, share, NULL, OPEN_EXISTING, flags,
                        NULL);
        if (h == INVALID_HANDLE_VALUE)
            h = CreateFileW(wide, GENERIC_WRITE, share, NULL, OPEN_EXISTING, flags, NULL);
    }
    free(wide);
    if (h == INVALID_HANDLE_VALUE)
        return refuse(h, OUTPUT_CANNOT_OPEN, error, refusal, detail);

    int known;
    const DWORD type = GetFileType(h);
    if (type == FILE_TYPE_DISK) {
        BY_HANDLE_FILE_INFORMATION info;
        if (!GetFileInformationByHandle(h, &info))
            return refuse(h, OUTPUT_CANNOT_OPEN, GetLastError(), refusal, detail);
        if (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
            return refuse(h, OUTPUT_SYMBOLIC_LINK, ERROR_SUCCESS, refusal, detail);
        if (!owned_by_user(h, user, token_owner, 0, &known))
            return refuse(h, known ? OUTPUT_OTHER_USER : OUTPUT_CANNOT_OPEN,
                          known ? ERROR_SUCCESS : GetLastError(), refusal, detail);
        if (info.nNumberOfLinks > 1)
            return refuse(h, OUTPUT_HARD_LINKS, ERROR_SUCCESS, refusal, detail);
        /* SetKernelObjectSecurity sets the descriptor as given; Wine 8's
         * SetSecurityInfo adds the folder's inheritable ACEs to it despite
         * PROTECTED_DACL_SECURITY_INFORMATION. */
        const int input =
            same_as != NULL && same_as->valid && same_as->device == info.dwVolumeSerialNumber &&
            same_as->index == ((unsigned long long)info.nFileIndexHigh << 32 | info.nFileIndexLow);
        if (!created) {
            if (!input &&
                !SetKernelObjectSecurity(
                    h, DACL_SECURITY_INFORMATION | PROTECTED_DACL_SECURITY_INFORMATION, &sd))
                return refuse(h, OUTPUT_CANNOT_RESTRICT, GetLastError(), refusal, detail);
            if (!SetEndOfFile(h))
                return refuse(h, OUTPUT_CANNOT_TRUNCATE, GetLastError(), refusal, detail);
        }
    } else if (type == FILE_TYPE_PIPE && !owned_by_user(h, user, token_owner, 1, &known)) {
        return refuse(h, known ? OUTPUT_OTHER_USER : OUTPUT_CANNOT_OPEN,
                      known ? ERROR_SUCCESS : GetLastError(), refusal, detail);
    }
    const int fd = _open_osfhandle((intptr_t)h, _O_WRONLY | _O_BINARY);
    if (fd < 0)
        return refuse(h, OUTPUT_CANNOT_OPEN, ERROR_TOO_MANY_OPEN_FILES, refusal, detail);
    return fd;
}

/* An anonymous pipe's buffer is fixed by whoever created it. */
void platform_grow_pipe(int fd) { (void)fd; }

/* A pipe does not run out of room (a writer waits), so a failed write to one
 * means the reader has gone. That is decided by the kind of file, not by
 * errno: the C runtime reports the same event as EINVAL, EPIPE or EBADF
 * (Windows's msvcrt and Wine's differ). 141 is what a POSIX shell (and so
 * Git Bash or MSYS2) reports for a program ended by SIGPIPE, 128 + 13. */
void platform_exit_if_reader_gone(int fd)
{
    const intptr_t h = _get_osfhandle(fd);
    if (h != -1 && h != -2 && GetFileType((HANDLE)h) == FILE_TYPE_PIPE)
        exit(141);
}
