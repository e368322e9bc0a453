// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Linux JNI libraries the jar carries (native/linux-*&#47;libshakerand_jni.so, read as the
 * loader reads them, from the class path), parsed here as ELF64 of either byte order: each is
 * bound at load (DT_FLAGS BIND_NOW or DT_FLAGS_1 NOW, or DT_BIND_NOW) with its relocated data
 * read-only after (a PT_GNU_RELRO segment), as src/main/c/build.sh links it and says why; and it
 * exports the JNI entry points of NativeLib and nothing else (no test-only native rides along).
 */
class ElfTest {
    private static final String[] PLATFORMS = {"linux-x86_64", "linux-aarch64", "linux-ppc64le", "linux-s390x"};

    private static final int PT_DYNAMIC = 2;
    private static final int PT_GNU_RELRO = 0x6474e552;
    private static final long DT_NULL = 0;
    private static final long DT_BIND_NOW = 24;
    private static final long DT_FLAGS = 30;
    private static final long DF_BIND_NOW = 0x8;
    private static final long DT_FLAGS_1 = 0x6ffffffbL;
    private static final long DF_1_NOW = 0x1;
    private static final int SHT_DYNSYM = 11;

    @Test
    void everyLinuxLibraryIsBoundAtLoadWithReadOnlyRelocations() throws Exception {
        List<String> found = new ArrayList<>();
        for (String platform : PLATFORMS) {
            byte[] elf;
            try (InputStream in = NativeLib.class.getResourceAsStream("/native/" + platform + "/libshakerand_jni.so")) {
                if (in == null) {
                    continue; // not built here (no cross compiler); mvn -Prelease requires all four
                }
                elf = in.readAllBytes();
            }
            found.add(platform);
            check(platform, elf);
        }
        if (TestSupport.expectNative() && NativeLib.platform().startsWith("linux")) {
            assertTrue(found.contains(NativeLib.platform()), "no library for this platform among " + found);
        }
        assumeTrue(!found.isEmpty(), "the class path carries no Linux JNI library");
    }

    private static void check(String platform, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        assertTrue(b.getInt(0) == 0x7f454c46, platform + ": not ELF");
        assertEquals(2, b.get(4), platform + ": not ELF64");
        b.order(b.get(5) == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        long phoff = b.getLong(0x20);
        int phentsize = Short.toUnsignedInt(b.getShort(0x36));
        int phnum = Short.toUnsignedInt(b.getShort(0x38));
        boolean relro = false;
        boolean now = false;
        for (int i = 0; i < phnum; i++) {
            int ph = (int) (phoff + (long) i * phentsize);
            int type = b.getInt(ph);
            relro |= type == PT_GNU_RELRO;
            if (type == PT_DYNAMIC) {
                int off = (int) b.getLong(ph + 8);
                long size = b.getLong(ph + 32);
                for (int d = off; d + 16 <= off + size; d += 16) {
                    long tag = b.getLong(d);
                    long val = b.getLong(d + 8);
                    if (tag == DT_NULL) {
                        break;
                    }
                    now |= tag == DT_BIND_NOW || (tag == DT_FLAGS && (val & DF_BIND_NOW) != 0)
                            || (tag == DT_FLAGS_1 && (val & DF_1_NOW) != 0);
                }
            }
        }
        assertTrue(now, platform + ": not bound at load (no BIND_NOW in the dynamic section)");
        assertTrue(relro, platform + ": no GNU_RELRO segment");
        List<String> exported = exports(b);
        assertFalse(exported.isEmpty(), platform + ": no JNI entry point exported");
        for (String name : exported) {
            assertTrue(name.startsWith("Java_org_shakerand_NativeLib_"), platform + " exports " + name);
        }
    }

    /** The defined global or weak functions and objects of the dynamic symbol table. */
    private static List<String> exports(ByteBuffer b) {
        long shoff = b.getLong(0x28);
        int shentsize = Short.toUnsignedInt(b.getShort(0x3a));
        int shnum = Short.toUnsignedInt(b.getShort(0x3c));
        List<String> names = new ArrayList<>();
        for (int i = 0; i < shnum; i++) {
            int sh = (int) (shoff + (long) i * shentsize);
            if (b.getInt(sh + 4) != SHT_DYNSYM) {
                continue;
            }
            int off = (int) b.getLong(sh + 24);
            long size = b.getLong(sh + 32);
            int link = b.getInt(sh + 40);
            long entsize = b.getLong(sh + 56);
            int strtab = (int) b.getLong((int) (shoff + (long) link * shentsize) + 24);
            for (int s = off; s + entsize <= off + size; s += (int) entsize) {
                int info = b.get(s + 4) & 0xff;
                int bind = info >>> 4;
                int type = info & 0xf;
                boolean defined = b.getShort(s + 6) != 0;
                if (defined && (bind == 1 || bind == 2) && (type == 1 || type == 2)) {
                    names.add(string(b, strtab + b.getInt(s)));
                }
            }
        }
        return names;
    }

    private static String string(ByteBuffer b, int at) {
        int end = at;
        while (b.get(end) != 0) {
            end++;
        }
        byte[] s = new byte[end - at];
        b.get(at, s);
        return new String(s, StandardCharsets.US_ASCII);
    }
}
