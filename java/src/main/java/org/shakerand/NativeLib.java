// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * The JNI glue (src/main/c/shakerand_jni.c) and its loader. The library is packed in the jar
 * under native/PLATFORM/ and copied into a new directory of this process's own (mode 0700,
 * created exclusively under java.io.tmpdir, or -Dshakerand.tmpdir), then loaded and deleted; two
 * JVMs never share or overwrite one file. A temporary directory that others may write to
 * without the sticky bit is refused: anyone who can rename entries there could swap the file
 * between its writing and System.load.
 * The jar carries linux-x86_64, linux-aarch64, linux-ppc64le and linux-s390x (picked by os.arch);
 * each needs glibc 2.34 or later. -Dshakerand.native=false, another platform, or any failure
 * (an older glibc included) gives the pure-Java path, said once on System.Logger at INFO
 * ({@link SystemGenerator}, once the backend is in place).
 */
final class NativeLib {
    private NativeLib() {}

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
            String resource = "/native/" + platform + "/libshakerand_jni.so";
            try (InputStream in = NativeLib.class.getResourceAsStream(resource)) {
                if (in == null) {
                    status = "no native library for " + platform;
                } else {
                    Path dir = createPrivateDirectory();
                    Path file = dir.resolve("libshakerand_jni.so");
                    try {
                        try (OutputStream o = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW,
                                StandardOpenOption.WRITE)) {
                            in.transferTo(o);
                        }
                        System.load(file.toAbsolutePath().toString());
                    } finally {
                        // Once mapped, the file is not needed: remove it now, not at exit,
                        // so a crash leaves nothing behind.
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
        long pid = ProcessHandle.current().pid();
        for (int attempt = 0; ; attempt++) {
            Path dir = parent.resolve("shakerand-jni-" + pid + "-" + Long.toHexString(System.nanoTime())
                    + "-" + attempt);
            try {
                if (!unix) {
                    return Files.createDirectory(dir);
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

    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String o = os.startsWith("linux") ? "linux" : os.replaceAll("[^a-z0-9]", "");
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

    /** Fills all of words from the calling thread's system generator (one call). */
    static native void systemFillLongs(long[] words);

    /** Fills b[off, off + len) from the calling thread's system generator. */
    static native void systemFill(byte[] b, int off, int len);

    static native long systemU64();

    /** Reseeds the calling thread's system generator with extra's digest added to the seed. */
    static native void systemReseed(byte[] extra);

    /** Fills out with fresh conditioned entropy. */
    static native void entropy(byte[] out);

    /**
     * A new engine in native memory; IllegalArgumentException for an unknown kind or a seed
     * length the kind refuses (the C library's SHAKERAND_EINVAL).
     */
    static native long engineNew(int kind, byte[] seed);

    static native void engineFill(long engine, byte[] b, int off, int len);

    static native void engineFree(long engine);
}
