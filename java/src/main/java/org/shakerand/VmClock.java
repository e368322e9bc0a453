// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The hypervisor's VM generation word for the pure-Java system generator, found as the C core
 * finds it (src/system_os_vmclock.c, which says why each word): Linux's vmclock device, a page
 * laid out as the kernel's struct vmclock_abi. Its vm_generation_counter where the flags say the
 * hypervisor keeps it, else its disruption_marker, which a restore also moves.
 *
 * <p>The page is read, not mapped: the JDK maps no more than a file's size says it holds, and a
 * character device's size is 0 (JDK 17 and 25 refuse to map /dev/zero so). The device's driver
 * (ptp_vmclock, vmclock_miscdev_read) answers a positional read with a copy taken under the
 * page's sequence count, so every {@link #word} is one pread of the structure's first bytes,
 * a value the hypervisor finished writing: a system call per check, which the generator makes
 * before every draw (its cost is in BENCHMARKS.md).
 *
 * <p>The channel is shared by every thread. A FileChannel is interruptible: a read by a thread
 * whose interrupt status is set, or that is interrupted during it, closes the channel for all.
 * So a read runs with the status cleared and set again after it, and a channel found closed
 * (an interrupt that landed during another thread's read) is opened again and read again, up to
 * OPEN_TRIES times. Interrupts aimed at drawing threads can still close it: each then costs a
 * reopening, and a read that fails every try counts as a move (a reseed no restore asked for);
 * a move is never missed, since a reopened channel reads the page as it is now.
 *
 * <p>CRaC refuses a checkpoint with a file open: the hook closes the channel before it and opens
 * it again after the restore; in between a read fails and every draw reseeds.
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
    private static final int OPEN_TRIES = 4; // reopenings of a channel an interrupt closed

    private static final int S_IFMT = 0170000;
    private static final int S_IFCHR = 0020000;

    private final Path path;
    private final int offset; // of the watched word
    private final long startWord; // read when the watch began
    private volatile FileChannel channel;
    private int reopens; // for the tests; under this object's lock
    private boolean checkpointing; // closed for a checkpoint; under this object's lock

    private VmClock(Path path, FileChannel channel, int offset) {
        this.path = path;
        this.channel = channel;
        this.offset = offset;
        this.startWord = read(buffer());
    }

    /**
     * A buffer for the reads of one thread (or of one generator, under its lock): direct, so the
     * JDK reads into it with no copy.
     */
    ByteBuffer buffer() {
        return ByteBuffer.allocateDirect(offset + 8).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The device, or null where there is none this JVM can read. */
    static VmClock device() {
        return open(Path.of(DEVICE), true);
    }

    /**
     * The page at path, kept open, or null if it is not such a page. The device must be a
     * character device; a regular file stands in for it in the tests and benchmarks only (device
     * false) and must hold the whole structure.
     */
    static VmClock open(Path path, boolean device) {
        FileChannel c = null;
        try {
            // The type before the open: a FIFO at the path would block FileChannel.open, which has
            // no O_NONBLOCK (the C core opens with it first). Following a symlink, as open does.
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
            if (device) {
                if (!isCharacterDevice(path)) {
                    return null;
                }
            } else if (!a.isRegularFile() || a.size() < ABI_BYTES) {
                return null;
            }
            c = FileChannel.open(path, StandardOpenOption.READ);
            ByteBuffer p = ByteBuffer.allocate(ABI_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            while (p.hasRemaining() && c.read(p, p.position()) > 0) {
                // a short read goes on where it stopped
            }
            if (p.hasRemaining() || p.getInt(0) != MAGIC
                    || Integer.toUnsignedLong(p.getInt(SIZE_OFFSET)) < ABI_BYTES
                    || p.getShort(VERSION_OFFSET) != 1) {
                c.close();
                return null;
            }
            boolean counterKept = (p.getLong(FLAGS_OFFSET) & FLAG_VM_GEN_KEPT) != 0;
            return new VmClock(path, c, counterKept ? VM_GEN_OFFSET : DISRUPTION_OFFSET);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException
                | SecurityException e) {
            if (c != null) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // nothing is watched either way
                }
            }
            return null; // absent, unreadable, or no "unix" view: nothing watched
        }
    }

    /**
     * Whether path names a character device (following a symlink); throws where there is no
     * "unix" attribute view (Windows) or no such file.
     */
    static boolean isCharacterDevice(Path path) throws IOException {
        Object mode = Files.getAttribute(path, "unix:mode");
        return mode instanceof Integer && ((Integer) mode & S_IFMT) == S_IFCHR;
    }

    /**
     * The structure's first bytes up to the watched word, read into b (from {@link #buffer}) at
     * offset 0; false if they could not be read.
     */
    private boolean readPage(ByteBuffer b) {
        boolean interrupted = Thread.interrupted();
        try {
            for (int i = 0; i < OPEN_TRIES; i++) {
                FileChannel c = channel;
                try {
                    b.clear();
                    while (b.hasRemaining()) {
                        if (c.read(b, b.position()) <= 0) {
                            return false;
                        }
                    }
                    return true;
                } catch (ClosedChannelException e) {
                    // An interrupt closed it: this thread's (its status is kept for after), or
                    // another thread's during its read.
                    interrupted |= Thread.interrupted();
                    reopen(c);
                } catch (IOException e) {
                    return false; // the driver's ETIMEDOUT: a sequence count held odd 100 ms
                }
            }
            return false;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private synchronized void reopen(FileChannel closed) {
        if (channel != closed || checkpointing) {
            return; // another thread opened it again, or it stays closed until the restore
        }
        reopens++;
        open();
    }

    /** Under this object's lock. */
    private void open() {
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        } catch (IOException | SecurityException e) {
            // the next read fails again, and is reported as unreadable
        }
    }

    /** Closes the channel for a checkpoint; no read opens it again before reopenAfterRestore. */
    synchronized void closeForCheckpoint() {
        checkpointing = true;
        try {
            channel.close();
        } catch (IOException e) {
            // closed either way: FileChannel marks itself closed before it closes the descriptor
        }
    }

    /** Opens the channel again after a restore (a failure: every draw reseeds, as unreadable). */
    synchronized void reopenAfterRestore() {
        if (checkpointing) {
            checkpointing = false;
            open();
        }
    }

    /**
     * Whether the watched word now equals seen: one positional read. A page that cannot be read
     * is not unchanged: the generator reseeds rather than hand out what it cannot vouch for.
     */
    boolean unchanged(ByteBuffer b, long seen) {
        return readPage(b) && b.getLong(offset) == seen;
    }

    /** The watched word now, or {@link #UNREADABLE} (for UUIDv7's check, which compares words). */
    long word() {
        ByteBuffer b = ByteBuffer.allocate(offset + 8).order(ByteOrder.LITTLE_ENDIAN);
        return readPage(b) ? b.getLong(offset) : UNREADABLE;
    }

    /** What {@link #word} and {@link #read} give for a page that could not be read. */
    static final long UNREADABLE = 0xdead_0bad_0bad_deadL;

    /**
     * The word read under the page's sequence count, so the value is one the hypervisor finished
     * writing (for a seed). The device's own read already waits for an even, unchanged count; a
     * regular file (the tests') does not, so the count is checked here too. A count left odd
     * (a stuck or hostile hypervisor) ends the wait after SEQ_TRIES reads: the value then read
     * is returned, and the draws compare against it like any other.
     */
    long read(ByteBuffer b) {
        long v = UNREADABLE;
        for (int i = 0; i < SEQ_TRIES; i++) {
            if (!readPage(b)) {
                return UNREADABLE;
            }
            v = b.getLong(offset);
            if ((b.getInt(SEQ_OFFSET) & 1) == 0) {
                break;
            }
        }
        return v;
    }

    /**
     * The word when the watch began (the C core's vm_generation_at_start): a seed that reads
     * another follows a restore.
     */
    long startWord() {
        return startWord;
    }

    synchronized int reopensForTest() {
        return reopens;
    }

    /** Closes the channel, as an interrupt during another thread's read would (for the tests). */
    void closeForTest() throws IOException {
        channel.close();
    }

    /** Whether the counter (not the disruption marker) is the watched word (for the tests). */
    boolean watchesCounter() {
        return offset == VM_GEN_OFFSET;
    }
}
