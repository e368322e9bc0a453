// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * The JNI glue (src/main/c/shakerand_jni.c) and its loader. The library is packed in the jar
 * under native/PLATFORM/ and copied to a private temporary file of this process (a fresh name
 * each time, mode 0600, created exclusively), then loaded; two JVMs never share or overwrite one file.
 * The jar carries linux-x86_64, linux-aarch64, linux-ppc64le and linux-s390x (picked by os.arch);
 * each needs glibc 2.34 or later. -Dshakerand.native=false, another platform, or any failure
 * (an older glibc included) gives the pure-Java path, said once on System.Logger at INFO.
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
                    Path file = createPrivateFile();
                    try {
                        try (OutputStream o = Files.newOutputStream(file, StandardOpenOption.WRITE)) {
                            in.transferTo(o);
                        }
                        System.load(file.toAbsolutePath().toString());
                    } finally {
                        // Once mapped, the file is not needed: remove it now, not at exit,
                        // so a crash leaves nothing behind.
                        if (!file.toFile().delete()) {
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
        if (!ok) {
            System.getLogger("org.shakerand").log(System.Logger.Level.INFO,
                    "shakerand: pure Java, " + status);
        }
    }

    /**
     * A new file only this user can read, made with O_CREAT|O_EXCL under a name unique to this
     * process. Files.createTempFile is not used: it names files with a SecureRandom, which is
     * this library itself when the provider is installed first (a cycle during class init).
     */
    private static Path createPrivateFile() throws IOException {
        Path dir = Paths.get(System.getProperty("java.io.tmpdir"));
        long pid = ProcessHandle.current().pid();
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        for (int attempt = 0; ; attempt++) {
            Path file = dir.resolve("shakerand-jni-" + pid + "-" + Long.toHexString(System.nanoTime())
                    + "-" + attempt + ".so");
            try {
                return posix
                        ? Files.createFile(file, PosixFilePermissions.asFileAttribute(
                                PosixFilePermissions.fromString("rw-------")))
                        : Files.createFile(file);
            } catch (FileAlreadyExistsException e) {
                if (attempt > 100) {
                    throw e;
                }
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
