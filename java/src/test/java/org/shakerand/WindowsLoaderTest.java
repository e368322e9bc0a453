// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.AclEntry;
import java.nio.file.attribute.AclEntryPermission;
import java.nio.file.attribute.AclEntryType;
import java.nio.file.attribute.AclFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserPrincipal;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The loader's Windows side: the DLL is copied into a directory that only its owner may open
 * (an access list of one entry), and, since a loaded DLL cannot be deleted there, each start
 * deletes what exited processes left. The sweep is plain file handling and runs everywhere;
 * the access lists are checked on Windows (tests/windows/java.sh runs this under Wine).
 */
class WindowsLoaderTest {
    /**
     * Tests that make a symbolic link or give a file to another user, and abort where they
     * cannot: Wine 8 reports success for both and does neither (tests/windows/java.sh leaves
     * them out); root can on Linux.
     */
    static final String LINKS_AND_OWNERS = "links-and-owners";

    @Test
    void theCopyAndItsDirectoryAreTheOwnersAlone() throws Exception {
        assumeTrue(NativeLib.WINDOWS && TestSupport.expectNative(), "Windows native path only");
        assertTrue(NativeLib.LOADED, NativeLib.STATUS);
        assertEquals("windows-x86_64", NativeLib.platform());
        Path file = Paths.get(NativeLib.PATH);
        assertEquals("shakerand_jni.dll", file.getFileName().toString());
        assertOwnerOnly(file.getParent());
        if (Files.exists(file)) { // Windows keeps a loaded DLL; the next start deletes it
            assertOwnerOnly(file);
        }
    }

    private static void assertOwnerOnly(Path p) throws Exception {
        AclFileAttributeView view = Files.getFileAttributeView(p, AclFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        List<AclEntry> acl = view.getAcl();
        assertTrue(NativeLib.ownerOnly(acl, view.getOwner()), p + ": " + acl);
    }

    private static UserPrincipal principal(String name) {
        return new UserPrincipal() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public boolean equals(Object o) {
                return o instanceof UserPrincipal u && u.getName().equals(name);
            }

            @Override
            public int hashCode() {
                return name.hashCode();
            }
        };
    }

    private static AclEntry allow(UserPrincipal who, Set<AclEntryPermission> what) {
        return AclEntry.newBuilder().setType(AclEntryType.ALLOW).setPrincipal(who).setPermissions(what).build();
    }

    @Test
    void ownerOnlyAcceptsNothingButTheOwnerAndLocalSystem() {
        UserPrincipal me = principal("HOST\\me");
        UserPrincipal other = principal("HOST\\other");
        UserPrincipal system = principal("NT AUTHORITY\\SYSTEM");
        Set<AclEntryPermission> all = EnumSet.allOf(AclEntryPermission.class);
        assertTrue(NativeLib.ownerOnly(List.of(allow(me, all)), me));
        assertTrue(NativeLib.ownerOnly(List.of(allow(system, all), allow(me, all)), me), "Wine's form");
        assertFalse(NativeLib.ownerOnly(List.of(), me), "an empty list locks the owner out too");
        assertFalse(NativeLib.ownerOnly(List.of(allow(me, all), allow(other, EnumSet.of(AclEntryPermission.READ_DATA))), me));
        Set<AclEntryPermission> noWriteAcl = EnumSet.copyOf(all);
        noWriteAcl.remove(AclEntryPermission.WRITE_ACL);
        assertFalse(NativeLib.ownerOnly(List.of(allow(me, noWriteAcl)), me));
        assertFalse(NativeLib.ownerOnly(List.of(allow(other, all)), me));
    }

    @Test
    void sweepDeletesOnlyWhatExitedProcessesLeft() throws Exception {
        Path parent = scratch();
        long dead = deadPid();
        // Wine gives each new process the id an exited one had: this id's old directories go.
        Path reused = dll(parent, "shakerand-jni-" + ProcessHandle.current().pid() + "-1b-0");
        Path exited = dll(parent, "shakerand-jni-" + dead + "-1a-0");
        Path crowded = dll(parent, "shakerand-jni-" + dead + "-1c-0");
        Files.write(crowded.resolveSibling("other.txt"), new byte[] {1});
        Path foreign = dll(parent, "shakerand-jni-x" + dead + "-0");
        Path own = Files.createDirectory(parent.resolve("shakerand-jni-" + ProcessHandle.current().pid() + "-1f-0"));
        Path unrelated = dll(parent, "other-" + dead + "-1d-0");
        // A running process (the launcher of this JVM where there is one) keeps its directory.
        long live = ProcessHandle.current().parent().filter(ProcessHandle::isAlive)
                .map(ProcessHandle::pid).orElse(-1L);
        Path running = live < 0 ? null : dll(parent, "shakerand-jni-" + live + "-1e-0");
        try {
            NativeLib.sweepExited(parent, own);

            assertTrue(Files.isDirectory(own), "this process's own directory is kept");
            assertFalse(Files.exists(exited.getParent()), "an exited process's directory is deleted");
            assertFalse(Files.exists(reused.getParent()), "a reused id's old directory is deleted");
            assertTrue(running == null || Files.exists(running), "a running process's library is kept");
            assertTrue(Files.exists(crowded.resolveSibling("other.txt")), "what is not ours is kept");
            assertTrue(Files.exists(foreign) && Files.exists(unrelated), "other names are kept");
        } finally {
            deleteTree(parent);
        }
    }

    /**
     * A name like an exited process's directory that leads elsewhere: the sweep must not delete
     * through it. Here a symbolic link (where one can be made: Windows needs a privilege or
     * developer mode, and Wine 8 makes none); a Windows junction, which the JDK reports as a
     * directory, is sweepableRefusesJunctionsAndOthersDirectories' case.
     */
    @Test
    @Tag(LINKS_AND_OWNERS)
    void sweepDoesNotFollowALink() throws Exception {
        Path parent = scratch();
        try {
            Path victim = dll(parent, "victim");
            Path own = Files.createDirectory(parent.resolve("shakerand-jni-" + ProcessHandle.current().pid() + "-1-0"));
            Path link = parent.resolve("shakerand-jni-" + deadPid() + "-1a-0");
            try {
                Files.createSymbolicLink(link, victim.getParent().toAbsolutePath());
            } catch (IOException | UnsupportedOperationException e) {
                assumeTrue(false, "no symbolic link here: " + e);
            }
            assumeTrue(Files.isSymbolicLink(link), "no symbolic link made");

            NativeLib.sweepExited(parent, own);

            assertTrue(Files.exists(victim), "the link's target keeps its file");
        } finally {
            deleteTree(parent);
        }
    }

    /** A directory named like ours that another user made (planted) is not the sweep's. */
    @Test
    @Tag(LINKS_AND_OWNERS)
    void sweepLeavesAnotherOwnersDirectory() throws Exception {
        Path parent = scratch();
        try {
            Path own = Files.createDirectory(parent.resolve("shakerand-jni-" + ProcessHandle.current().pid() + "-1-0"));
            Path planted = dll(parent, "shakerand-jni-" + deadPid() + "-1a-0");
            UserPrincipal other;
            try {
                other = parent.getFileSystem().getUserPrincipalLookupService()
                        .lookupPrincipalByName(NativeLib.WINDOWS ? "NT AUTHORITY\\SYSTEM" : "nobody");
                Files.setOwner(planted.getParent(), other);
            } catch (IOException | UnsupportedOperationException e) {
                assumeTrue(false, "cannot give a directory to another user here (root can): " + e);
                return;
            }
            assumeTrue(Files.getOwner(planted.getParent()).equals(other)
                    && !other.equals(Files.getOwner(own)), "the owner did not change");

            NativeLib.sweepExited(parent, own);

            assertTrue(Files.exists(planted), "another user's directory keeps its file");
        } finally {
            deleteTree(parent);
        }
    }

    /** What the sweep deletes, decided from attributes read without following links. */
    @Test
    void sweepableRefusesJunctionsAndOthersDirectories() {
        UserPrincipal me = principal("HOST\\me");
        UserPrincipal other = principal("HOST\\other");
        assertTrue(NativeLib.sweepable(attributes(true, false, false), me, me), "a plain directory of mine");
        // A junction on Windows: FILE_ATTRIBUTE_DIRECTORY with a mount-point reparse tag, which
        // the JDK reports as a directory and isOther (only the symbolic-link tag counts as a link).
        assertFalse(NativeLib.sweepable(attributes(true, true, false), me, me), "a junction");
        assertFalse(NativeLib.sweepable(attributes(false, false, true), me, me), "a symbolic link");
        assertFalse(NativeLib.sweepable(attributes(false, false, false), me, me), "a file");
        assertFalse(NativeLib.sweepable(attributes(true, false, false), other, me), "another user's directory");
    }

    /** A directory another user put something in before it was made private is refused. */
    @Test
    void aDirectoryWrittenToBeforeItWasPrivateIsRefused() throws Exception {
        Path parent = scratch();
        try {
            Path dir = Files.createDirectory(parent.resolve("d"));
            NativeLib.requireEmpty(dir);
            Files.write(dir.resolve(NativeLib.libraryFileName("windows-x86_64")), new byte[] {0x4d, 0x5a});
            IOException e = assertThrows(IOException.class, () -> NativeLib.requireEmpty(dir));
            assertTrue(e.getMessage().contains("-Dshakerand.tmpdir"), e.getMessage());
        } finally {
            deleteTree(parent);
        }
    }

    private static BasicFileAttributes attributes(boolean directory, boolean other, boolean link) {
        return new BasicFileAttributes() {
            @Override
            public FileTime lastModifiedTime() {
                return FileTime.fromMillis(0);
            }

            @Override
            public FileTime lastAccessTime() {
                return FileTime.fromMillis(0);
            }

            @Override
            public FileTime creationTime() {
                return FileTime.fromMillis(0);
            }

            @Override
            public boolean isRegularFile() {
                return !directory && !other && !link;
            }

            @Override
            public boolean isDirectory() {
                return directory;
            }

            @Override
            public boolean isSymbolicLink() {
                return link;
            }

            @Override
            public boolean isOther() {
                return other;
            }

            @Override
            public long size() {
                return 0;
            }

            @Override
            public Object fileKey() {
                return null;
            }
        };
    }

    /**
     * A new directory under target/. Not Files.createTempDirectory: it names with the JDK's
     * SecureRandom, which cannot run under Wine.
     */
    private static Path scratch() throws IOException {
        return Files.createDirectories(Paths.get("target",
                "sweep-" + ProcessHandle.current().pid() + "-" + System.nanoTime()));
    }

    /** An id no process has (Linux caps ids at 2^22, Windows' are smaller). */
    private static long deadPid() {
        long dead = Integer.MAX_VALUE;
        assumeTrue(ProcessHandle.of(dead).isEmpty());
        return dead;
    }

    /** Deletes dir and what is in it; links are deleted, not followed (Files.walk's default). */
    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static Path dll(Path parent, String dir) throws Exception {
        Path d = Files.createDirectory(parent.resolve(dir));
        return Files.write(d.resolve(NativeLib.libraryFileName("windows-x86_64")), new byte[] {0x4d, 0x5a});
    }
}
