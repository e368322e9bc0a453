/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Test helper, never shipped: prints what Windows says about a file's
 * security, for tests/python/test_cli_windows.py (Wine has no icacls).
 *
 *   user S-...                    the SID of the user running this
 *   owner S-...                   the file's owner
 *   protected 0|1                 whether the DACL is closed to inheritance
 *   ace TYPE MASK FLAGS S-...     each ACE in order (TYPE 0 allow, 1 deny)
 *
 * or "no dacl" for a NULL DACL (everyone has every right). Exit status 1
 * if the file's security cannot be read.
 * Build: x86_64-w64-mingw32-gcc -municode -o show_acl.exe show_acl.c
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <aclapi.h>
#include <sddl.h>
#include <stdio.h>

static void print_sid(const char *label, PSID sid)
{
    LPSTR text = NULL;
    if (sid != NULL && ConvertSidToStringSidA(sid, &text)) {
        printf("%s %s\n", label, text);
        LocalFree(text);
    } else {
        printf("%s ?\n", label);
    }
}

int wmain(int argc, wchar_t **argv)
{
    if (argc != 2) {
        fputs("usage: show_acl FILE\n", stderr);
        return 2;
    }
    HANDLE token;
    union {
        TOKEN_USER info;
        BYTE bytes[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
    } user;
    DWORD size;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token) ||
        !GetTokenInformation(token, TokenUser, &user, sizeof user, &size)) {
        fprintf(stderr, "show_acl: no token user: %lu\n", GetLastError());
        return 1;
    }
    print_sid("user", user.info.User.Sid);

    PSID owner = NULL;
    PACL dacl = NULL;
    PSECURITY_DESCRIPTOR sd = NULL;
    const DWORD error = GetNamedSecurityInfoW(
        argv[1], SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION, &owner,
        NULL, &dacl, NULL, &sd);
    if (error != ERROR_SUCCESS) {
        fprintf(stderr, "show_acl: GetNamedSecurityInfoW: %lu\n", error);
        return 1;
    }
    print_sid("owner", owner);
    SECURITY_DESCRIPTOR_CONTROL control = 0;
    DWORD revision;
    GetSecurityDescriptorControl(sd, &control, &revision);
    printf("protected %d\n", (control & SE_DACL_PROTECTED) != 0);
    if (dacl == NULL) {
        puts("no dacl");
    } else {
        for (DWORD i = 0; i < dacl->AceCount; i++) {
            ACE_HEADER *ace;
            if (!GetAce(dacl, i, (void **)&ace))
                return 1;
            /* Allowed and denied ACEs share this layout. */
            ACCESS_ALLOWED_ACE *allowed = (ACCESS_ALLOWED_ACE *)ace;
            char label[64];
            snprintf(label, sizeof label, "ace %u 0x%08lx 0x%02x", ace->AceType,
                     (unsigned long)allowed->Mask, ace->AceFlags);
            print_sid(label, (PSID)&allowed->SidStart);
        }
    }
    LocalFree(sd);
    return 0;
}
