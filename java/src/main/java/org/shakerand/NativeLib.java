// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.AclEntry;
import java.nio.file.attribute.AclEntryFlag;
import java.nio.file.attribute.AclEntryPermission;
import java.nio.file.attribute.AclEntryType;
import java.nio.file.attribute.AclFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/**
 * The JNI glue (src/main/c/shakerand_jni.c) and its loader. The library is packed in the jar
 * under native/PLATFORM/ and copied into a new directory of this process's own (mode 0700,
 * created exclusively under java.io.tmpdir, or -Dshakerand.tmpdir), then loaded and deleted; two
 * JVMs never share or overwrite one file. A temporary directory that others may write to
 * without the sticky bit is refused: anyone who can rename entries there could swap the file
 * between its writing and System.load.
 * The jar carries linux-x86_64, linux-aarch64, linux-ppc64le and linux-s390x (picked by os.arch;
 * each needs glibc 2.34 or later) and windows-x86_64 (a DLL with no dependency beyond Windows'
 * own). -Dshakerand.native=false, another platform, or any failure (an older glibc included)
 * gives the pure-Java path, said once on System.Logger at INFO ({@link SystemGenerator}).
 * On Windows the directory and the DLL get an access list granting their owner alone (the
 * owner-only mode of POSIX), and since Windows cannot delete a DLL while it is loaded, each
 * start deletes what earlier processes of the same owner that have since exited left behind
 * (never through a link or junction). The temporary directory's own list and its ancestors' are
 * not examined there (unlike the POSIX check): the default, %TEMP% in the user's profile, is the
 * user's alone.
 */
final class NativeLib {
    private NativeLib() {}

    /** os.name starts with "Windows" (Windows 10, Windows Server 2022, ...). */
    static final boolean WINDOWS = System.getProperty("os.name", "").startsWith("Windows");

    private static final String PREFIX = "shakerand-jni-";

    /** Everything an access-list entry can grant (before the static block, which uses it). */
    private static final EnumSet<AclEntryPermission> ALL = EnumSet.allOf(AclEntryPermission.class);

    /**
     * LocalSystem as the JDK names it. It reads every file whatever the list says, so an entry
     * for it takes nothing away; Wine adds one to every list (it derives lists from the Unix
     * mode), where Windows keeps exactly the list it was given.
     */
    private static final String LOCAL_SYSTEM = "NT AUTHORITY\\SYSTEM";

    static final boolean LOADED;
    static final String STATUS;
    static final String PATH;

    static {
        boolean ok = false;
        String status;
        String path = null;
        if ("false".equalsIgnoreCase(System.getProperty("shakerand.native", "true"))) {
            status = "disabled by -Dshakerand.native=false";
        } else {
            String platform = platform();
            String name = libraryFileName(platform);
            String resource = "/native/" + platform + "/" + name;
            try (InputStream in = NativeLib.class.getResourceAsStream(resource)) {
                if (in == null) {
                    status = "no native library for " + platform;
                } else {
                    Path dir = createPrivateDirectory();
                    Path file = dir.resolve(name);
                    try {
                        if (WINDOWS) {
                            // It inherits the directory's owner-only entry; made its own and
                            // checked before a byte is written.
                            try (OutputStream o = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW,
                                    StandardOpenOption.WRITE)) {
                                restrictToOwner(file);
                                in.transferTo(o);
                            }
                        } else {
                            try (OutputStream o = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW,
                                    StandardOpenOption.WRITE)) {
                                in.transferTo(o);
                            }
                        }
                        System.load(file.toAbsolutePath().toString());
                    } finally {
                        // Once mapped, the file is not needed: remove it now, not at exit,
                        // so a crash leaves nothing behind. Windows refuses while the DLL is
                        // loaded: the next start removes it (sweepExited); deleteOnExit is
                        // kept for a DLL that failed to load.
                        boolean fileGone = file.toFile().delete();
                        if (!dir.toFile().delete()) {
                            dir.toFile().deleteOnExit(); // registered first, so deleted last
                        }
                        if (!fileGone) {
                            file.toFile().deleteOnExit();
                        }
                    }
                    path = file.toAbsolutePath().toString();
                    String v = version();
                    ok = v != null;
                    status = "loaded";
                }
            } catch (IOException | LinkageError | RuntimeException e) {
                // RuntimeException: IllegalCallerException under --illegal-native-access=deny
                status = "native library not loaded: " + e;
            }
        }
        LOADED = ok;
        STATUS = status;
        PATH = path;
    }

    /**
     * A new directory only this user can enter, made with mkdir (which fails if the name exists)
     * under a name unique to this process. Files.createTempDirectory is not used: it names
     * directories with a SecureRandom, which is this library itself when the provider is
     * installed first (a cycle during class init).
     */
    private static Path createPrivateDirectory() throws IOException {
        Path parent = Paths.get(System.getProperty("shakerand.tmpdir",
                System.getProperty("java.io.tmpdir"))).toRealPath();
        boolean unix = FileSystems.getDefault().supportedFileAttributeViews().contains("unix");
        boolean acl = FileSystems.getDefault().supportedFileAttributeViews().contains("acl");
        if (WINDOWS) {
            if (!acl) {
                throw new IOException("no access-control lists on " + parent
                        + ": cannot make the DLL private to this user");
            }
        } else if (!unix) {
            throw new IOException("no POSIX permissions on " + parent
                    + ": cannot make the library private to this user");
        }
        long pid = ProcessHandle.current().pid();
        for (int attempt = 0; ; attempt++) {
            Path dir = parent.resolve(PREFIX + pid + "-" + Long.toHexString(System.nanoTime())
                    + "-" + attempt);
            try {
                if (WINDOWS) {
                    // An empty list of its own at creation, replaced by the owner-only one
                    // before anything is put in. Windows merges the parent's inheritable entries
                    // into any list given at creation, so until then whoever the parent lets
                    // create files may put one in: the directory must still be empty after.
                    Files.createDirectory(dir, aclAttribute(List.of()));
                    try {
                        restrictToOwner(dir);
                        requireEmpty(dir);
                    } catch (IOException | RuntimeException e) {
                        try {
                            Files.delete(dir);
                        } catch (IOException | RuntimeException f) {
                            e.addSuppressed(f);
                        }
                        throw e;
                    }
                    // After this process's directory exists: its owner is whose to delete.
                    sweepExited(parent, dir);
                    return dir;
                }
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            } catch (FileAlreadyExistsException e) {
                if (attempt > 100) {
                    throw e;
                }
                continue;
            }
            try {
                checkNoOneElseCanRename(parent, (Integer) Files.getAttribute(dir, "unix:uid"));
            } catch (IOException e) {
                Files.delete(dir);
                throw e;
            }
            return dir;
        }
    }

    /**
     * Refuses a directory where another user could rename our directory (or an ancestor) away
     * and put their own in its place before System.load: one on the path that is writable by
     * group or others without the sticky bit (/tmp has it), or owned by someone other than this
     * user or root.
     */
    private static void checkNoOneElseCanRename(Path dir, int me) throws IOException {
        for (Path d = dir; d != null; d = d.getParent()) {
            int mode = (Integer) Files.getAttribute(d, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            int owner = (Integer) Files.getAttribute(d, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            if ((mode & 0022) != 0 && (mode & 01000) == 0) {
                throw new IOException(d + " is writable by others without the sticky bit;"
                        + " set -Dshakerand.tmpdir to a private directory");
            }
            if (owner != me && owner != 0) {
                throw new IOException(d + " belongs to another user (uid " + owner
                        + "); set -Dshakerand.tmpdir to a private directory");
            }
        }
    }

    private static java.nio.file.attribute.FileAttribute<List<AclEntry>> aclAttribute(List<AclEntry> acl) {
        return new java.nio.file.attribute.FileAttribute<>() {
            @Override
            public String name() {
                return "acl:acl";
            }

            @Override
            public List<AclEntry> value() {
                return acl;
            }
        };
    }

    /**
     * Refuses a directory something was put in before it was made private (see
     * createPrivateDirectory): not loading beats loading beside another user's file.
     */
    static void requireEmpty(Path dir) throws IOException {
        try (DirectoryStream<Path> in = Files.newDirectoryStream(dir)) {
            if (in.iterator().hasNext()) {
                throw new IOException(dir + " was written to before its access list was made"
                        + " owner-only (the temporary directory passes other users' rights down);"
                        + " set -Dshakerand.tmpdir to a directory only this user can write to");
            }
        }
    }

    /**
     * Replaces path's access list by one entry granting its owner everything (inherited by what
     * is created inside), and reads it back: a file system that keeps another list, or none,
     * is refused. The owner is whoever the system made owner at creation (this user, or the
     * Administrators group for an elevated administrator), so no account name is looked up.
     */
    private static void restrictToOwner(Path path) throws IOException {
        AclFileAttributeView view = Files.getFileAttributeView(path, AclFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        UserPrincipal owner = view.getOwner();
        AclEntry entry = AclEntry.newBuilder().setType(AclEntryType.ALLOW).setPrincipal(owner)
                .setPermissions(ALL)
                .setFlags(Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)
                        ? EnumSet.of(AclEntryFlag.FILE_INHERIT, AclEntryFlag.DIRECTORY_INHERIT)
                        : EnumSet.noneOf(AclEntryFlag.class))
                .build();
        view.setAcl(List.of(entry));
        List<AclEntry> back = view.getAcl();
        if (!ownerOnly(back, owner)) {
            throw new IOException(path + " did not keep its owner-only access list: " + back);
        }
    }

    /** acl grants owner everything and no one else anything (LocalSystem aside, see above). */
    static boolean ownerOnly(List<AclEntry> acl, UserPrincipal owner) {
        boolean ownerHasAll = false;
        for (AclEntry e : acl) {
            if (e.principal().equals(owner)) {
                ownerHasAll |= e.type() == AclEntryType.ALLOW && e.permissions().containsAll(ALL);
            } else if (e.type() == AclEntryType.ALLOW && !e.permissions().isEmpty()
                    && !e.principal().getName().equals(LOCAL_SYSTEM)) {
                return false;
            }
        }
        return ownerHasAll;
    }

    /**
     * Deletes the directories (and the DLL inside) of earlier processes that have exited; a
     * loaded DLL cannot be deleted on Windows, so each process leaves its own behind. Only
     * directories with own's owner are touched (own: this process's new directory, kept), and
     * never through a symbolic link or junction: in a temporary folder others can write to
     * (C:\Windows\Temp for a service), anyone could plant a name like ours pointing at a
     * folder of their choosing. A directory whose process still runs is left alone (it may be
     * between writing and loading its DLL), and one holding anything else is kept with what else
     * it holds. A DLL still loaded (another class loader's in this process) cannot be deleted
     * and stays.
     */
    static void sweepExited(Path parent, Path own) {
        long me = ProcessHandle.current().pid();
        UserPrincipal owner;
        try {
            owner = Files.getOwner(own, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | RuntimeException e) {
            return; // the sweep only tidies; loading goes on without it
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, PREFIX + "*")) {
            for (Path dir : dirs) {
                if (dir.getFileName().equals(own.getFileName())) {
                    continue;
                }
                String rest = dir.getFileName().toString().substring(PREFIX.length());
                int dash = rest.indexOf('-');
                long pid;
                try {
                    pid = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
                } catch (NumberFormatException e) {
                    continue;
                }
                // This process's own id counts as exited (its own directory is skipped above):
                // Windows (and Wine, at every start) reuses the ids of exited processes.
                if (pid != me && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    continue;
                }
                try {
                    BasicFileAttributes a = Files.readAttributes(dir, BasicFileAttributes.class,
                            LinkOption.NOFOLLOW_LINKS);
                    if (!sweepable(a, Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS), owner)) {
                        continue;
                    }
                    Files.deleteIfExists(dir.resolve(libraryFileName("windows")));
                    Files.delete(dir); // fails if something else is inside: left alone
                } catch (IOException | RuntimeException e) {
                    // in use, or gone meanwhile: not ours to force
                }
            }
        } catch (IOException | RuntimeException e) {
            // the sweep only tidies; loading goes on without it
        }
    }

    /**
     * A plain directory (attributes read without following links) of the given owner. On
     * Windows a junction (a mount-point reparse point) is a directory that is no symbolic link:
     * the JDK reports it, like any reparse point but a symbolic link, as isOther.
     */
    static boolean sweepable(BasicFileAttributes a, UserPrincipal owner, UserPrincipal me) {
        return a.isDirectory() && !a.isOther() && !a.isSymbolicLink() && owner.equals(me);
    }

    /** The library's file name, in the jar and on disk. */
    static String libraryFileName(String platform) {
        return platform.startsWith("windows") ? "shakerand_jni.dll" : "libshakerand_jni.so";
    }

    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String o = os.startsWith("linux") ? "linux"
                : os.startsWith("windows") ? "windows" : os.replaceAll("[^a-z0-9]", "");
        String a = arch.equals("amd64") || arch.equals("x86_64") ? "x86_64" : arch;
        return o + "-" + a;
    }

    static native String version();

    static native String kernelName();

    /** "os (getrandom (vDSO)), rdseed, rdrand" style: the sources mixed into seeds. */
    static native String sources();

    // The system generator and the entropy sources throw java.security.ProviderException, with
    // the C core's shakerand_strerror text, when the operating system gives no entropy for the
    // calling thread's first seed (nothing is produced then; the next call tries again).

    /**
     * Fills all of words from the calling thread's system generator (one call); returns the fork
     * mark read before the fill (set anew first if a fork zeroed it). Only where
     * {@link #forkMarkWord} is not null.
     */
    static native long systemFillLongs(long[] words);

    /** Fills b[off, off + len) from the calling thread's system generator. */
    static native void systemFill(byte[] b, int off, int len);

    static native long systemU64();

    /** Reseeds the calling thread's system generator with extra's digest added to the seed. */
    static native void systemReseed(byte[] extra);

    /** Fills out with fresh conditioned entropy. */
    static native void entropy(byte[] out);

    /** shakerand_system_new_epoch: every thread reseeds before its next byte. */
    static native void systemNewEpoch();

    static native boolean systemWatchesVmGeneration();

    /**
     * The C epoch words (shakerand_system_epoch_words) as direct buffers of 8 bytes in native
     * order, for the Java buffers' checks; the VM generation's stays 0 when none is watched.
     */
    static native java.nio.ByteBuffer epochWord();

    static native java.nio.ByteBuffer vmGenerationWord();

    /**
     * The fork mark (shakerand_jni.c): a word in native order that a fork zeroes in the child,
     * as a direct buffer of 8 bytes; null where no page is wiped on fork (the kernel refused
     * MADV_WIPEONFORK, the mapping failed, or another system than Linux and Windows).
     */
    static native java.nio.ByteBuffer forkMarkWord();

    /** What keeps a forked child from the buffers' words: "MADV_WIPEONFORK", or why none. */
    static native String forkGuard();

    /** The address of a direct buffer's first byte (0 if it has none). */
    static native long bufferAddress(java.nio.ByteBuffer buffer);

    /**
     * A new engine in native memory; IllegalArgumentException for an unknown kind or a seed
     * length the kind refuses (the C library's SHAKERAND_EINVAL).
     */
    static native long engineNew(int kind, byte[] seed);

    // The C core's kind table (shakerand_kind_count, _at, _name, _seed_size, _block_size): the
    // native path asks it instead of listing kinds, so a kind added to the core needs no change
    // here. A kind is its shakerand_kind value.

    static native int kindCount();

    /** The index-th kind's value; 0 past the end. */
    static native int kindAt(int index);

    /** null for an unknown kind. */
    static native String kindName(int kind);

    /** The exact seed length, or 0 for any length. */
    static native int kindSeedSize(int kind);

    static native int kindBlockSize(int kind);

    /** The native path's kind table, read once; empty if the library did not load. */
    static List<KindRow> kinds() {
        return Kinds.TABLE;
    }

    /** A holder: the table is read at first use, after the library is loaded. */
    private static final class Kinds {
        static final List<KindRow> TABLE = read();

        private static List<KindRow> read() {
            List<KindRow> rows = new ArrayList<>();
            for (int i = 0, n = LOADED ? kindCount() : 0; i < n; i++) {
                int kind = kindAt(i);
                rows.add(new KindRow(kindName(kind), kind, kindSeedSize(kind), kindBlockSize(kind),
                        seed -> new NativeEngine(kind, seed)));
            }
            return List.copyOf(rows);
        }
    }

    static native void engineFill(long engine, byte[] b, int off, int len);

    static native void engineFree(long engine);
}
