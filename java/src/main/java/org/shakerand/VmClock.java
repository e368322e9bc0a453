// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The hypervisor's VM generation word for the pure-Java system generator, found as the C core
 * finds it (src/system_os_vmclock.c, which says why each word): Linux's vmclock device, a page
 * laid out as the kernel's struct vmclock_abi. Its vm_generation_counter where the flags say the
 * hypervisor keeps it, else its disruption_marker, which a restore also moves.
 *
 * <p>The page is mapped read-only (FileChannel.map), so {@link #word} is one load, opaque, as
 * the native path's epoch words are read (java/README.md): a plain read could legally be hoisted
 * out of a caller's loop, which would miss a restore in the middle of it. The JDK
 * maps no more than a file's size says it holds, and a character device's size is 0 (JDK 17 and
 * 25 refuse to map /dev/zero so); where the map fails nothing is watched.
 */
final class VmClock {
    static final String DEVICE = "/dev/vmclock0";

    // Offsets and values of struct vmclock_abi (little-endian).
    static final int MAGIC = 0x4b4c4356; // "VCLK"
    static final int SIZE_OFFSET = 4; // u32: the region's size
    static final int VERSION_OFFSET = 8; // u16: 1
    static final int SEQ_OFFSET = 12; // u32: odd while the hypervisor writes
    static final int DISRUPTION_OFFSET = 16; // u64
    static final int FLAGS_OFFSET = 24; // u64
    static final int VM_GEN_OFFSET = 104; // u64
    static final int ABI_BYTES = 112; // the structure up to vm_generation_counter
    static final long FLAG_VM_GEN_KEPT = 1L << 8; // VMCLOCK_FLAG_VM_GEN_COUNTER_PRESENT
    static final int SEQ_TRIES = 1 << 12; // a hypervisor's write takes far fewer reads

    private static final int S_IFMT = 0170000;
    private static final int S_IFCHR = 0020000;

    private static final VarHandle LONG =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT =
            MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final MappedByteBuffer page;
    private final int offset; // of the watched word

    private VmClock(MappedByteBuffer page, int offset) {
        this.page = page;
        this.offset = offset;
    }

    /** The device's page, or null where there is none this JVM can map. */
    static VmClock device() {
        return map(Path.of(DEVICE), true);
    }

    /**
     * The page at path mapped read-only, or null if it is not such a page. The device must be a
     * character device; a regular file stands in for it in the tests only (device false) and
     * must hold the whole structure. The mapping stays for the life of the object.
     */
    static VmClock map(Path path, boolean device) {
        try {
            // The type before the open: a FIFO at the path would block FileChannel.open, which has
            // no O_NONBLOCK (the C core opens with it first). Following a symlink, as open does.
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
            long len;
            if (device) {
                Object mode = Files.getAttribute(path, "unix:mode");
                if (!(mode instanceof Integer) || ((Integer) mode & S_IFMT) != S_IFCHR) {
                    return null;
                }
                len = ABI_BYTES;
            } else {
                if (!a.isRegularFile() || a.size() < ABI_BYTES) {
                    return null;
                }
                len = Math.min(a.size(), 4096);
            }
            MappedByteBuffer p;
            try (FileChannel c = FileChannel.open(path, StandardOpenOption.READ)) {
                p = c.map(FileChannel.MapMode.READ_ONLY, 0, len);
            }
            p.order(ByteOrder.LITTLE_ENDIAN);
            if (p.getInt(0) != MAGIC || Integer.toUnsignedLong(p.getInt(SIZE_OFFSET)) < ABI_BYTES
                    || p.getShort(VERSION_OFFSET) != 1) {
                return null; // the mapping goes with the buffer
            }
            boolean counterKept = (p.getLong(FLAGS_OFFSET) & FLAG_VM_GEN_KEPT) != 0;
            return new VmClock(p, counterKept ? VM_GEN_OFFSET : DISRUPTION_OFFSET);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException
                | SecurityException e) {
            return null; // absent, unreadable, not mappable, or no "unix" view: nothing watched
        }
    }

    /** The watched word now: one load, for the comparison on every draw. */
    long word() {
        return (long) LONG.getOpaque(page, offset);
    }

    /**
     * The word read under the page's sequence count, so the value is one the hypervisor finished
     * writing (for a seed). A count left odd (a stuck or hostile hypervisor) ends the wait after
     * SEQ_TRIES reads: the value then read is returned, and the draws compare against it like any
     * other.
     */
    long read() {
        long v = word();
        for (int i = 0; i < SEQ_TRIES; i++) {
            // Acquire loads: the sequence count, then the word, then the count again.
            int before = (int) INT.getAcquire(page, SEQ_OFFSET);
            v = (long) LONG.getAcquire(page, offset);
            if ((before & 1) == 0 && (int) INT.getAcquire(page, SEQ_OFFSET) == before) {
                break;
            }
        }
        return v;
    }

    /** Whether the counter (not the disruption marker) is the watched word (for the tests). */
    boolean watchesCounter() {
        return offset == VM_GEN_OFFSET;
    }
}
