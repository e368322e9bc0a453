// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build linux && (amd64 || arm64)

package shakerand

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// A child made by a raw fork (the system call itself: no fork handler
// runs, as a Go program has none) hands out nothing its parent buffered,
// whatever the kernel does with the buffers' pages: with MADV_WIPEONFORK
// working, with it refused (tests/no_wipeonfork.c), and with the mapping
// of the buffers refused (its --refuse-mmap), which leaves the package
// its fallback. Each case runs this test binary again (in the build under
// test: cgo or pure Go, race or not) as rawForkHelper, which forks.
const rawForkHelperEnv = "SHAKERAND_TEST_RAW_FORK_HELPER"

func TestRawForkChildRepeatsNothing(t *testing.T) {
	if os.Getenv(rawForkHelperEnv) != "" {
		rawForkHelper(t)
		return
	}
	if err := exec.Command(os.Args[0], "-test.run=^$").Run(); err != nil {
		// Under qemu-user without binfmt_misc (tools/go/run-tests.sh's
		// arm64 runs) this binary cannot start itself; the native runs
		// cover the test.
		t.Skipf("this binary cannot start itself here: %v", err)
	}
	if forkHow == forkWiped && !wipeOnForkWipes(t) {
		t.Skip("a page marked MADV_WIPEONFORK is not wiped in a child here, as under qemu-user before 8.1: " +
			"not covered (doc.go, \"Fork\")")
	}
	run := func(t *testing.T, want string, launcher ...string) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		args := append(launcher, os.Args[0], "-test.run=^TestRawForkChildRepeatsNothing$", "-test.count=1", "-test.v")
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Env = append(os.Environ(), rawForkHelperEnv+"="+want)
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("raw-fork helper: ok")) {
			t.Fatalf("the helper failed (%v):\n%s", err, firstLines(out, 40))
		}
		t.Logf("%s", bytes.TrimSpace(grepLine(out, "fork defence:")))
	}
	// Whatever this kernel does (Linux 4.14 and later accept WIPEONFORK).
	t.Run("kernel as it is", func(t *testing.T) { run(t, "any") })

	launcher := ""
	if forkHow != forkWiped { // an older kernel, or this binary already run under the launcher
		noLauncherReason = "the pages are not wiped in this process already: " + forkDefenceForTest()
	} else {
		launcher = buildNoWipeOnFork(t)
	}
	t.Run("WIPEONFORK refused", func(t *testing.T) {
		if launcher == "" {
			t.Skip(noLauncherReason)
		}
		run(t, "pid, WIPEONFORK refused", launcher, "--")
	})
	t.Run("mapping refused", func(t *testing.T) {
		if launcher == "" {
			t.Skip(noLauncherReason)
		}
		n := strconv.Itoa(forkAreaSizeForTest())
		run(t, "pid, mapping refused", launcher, "--refuse-mmap", n, "--")
	})
}

// wipeOnForkWipes reports whether a page marked MADV_WIPEONFORK reads zero
// in a child made by a raw fork. The child reads one byte and leaves by
// the exit system call, with that byte as its status.
func wipeOnForkWipes(t *testing.T) bool {
	b, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(b)
	if syscall.Madvise(b, madvWipeOnFork) != nil {
		return false
	}
	b[0] = 1
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	runtime.Gosched()
	pid := rawFork()
	if pid == 0 {
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, uintptr(b[0]), 0, 0)
	}
	if pid < 0 {
		t.Fatalf("the raw fork failed: %v", syscall.Errno(-pid))
	}
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
		t.Fatal(err)
	}
	return ws.Exited() && ws.ExitStatus() == 0
}

var noLauncherReason string

// buildNoWipeOnFork compiles tests/no_wipeonfork.c with cc and returns its
// path, or "" (noLauncherReason saying why) when there is no cc or source,
// or the filter cannot be installed here (--check exits 77).
func buildNoWipeOnFork(t *testing.T) string {
	src, err := filepath.Abs("../tests/no_wipeonfork.c")
	if err == nil {
		_, err = os.Stat(src)
	}
	if err != nil {
		noLauncherReason = "no tests/no_wipeonfork.c beside the module: " + err.Error()
		return ""
	}
	cc, err := exec.LookPath("cc")
	if err != nil {
		noLauncherReason = "no C compiler (cc) to build tests/no_wipeonfork.c"
		return ""
	}
	bin := filepath.Join(t.TempDir(), "no_wipeonfork")
	if out, err := exec.Command(cc, "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("cc tests/no_wipeonfork.c: %v\n%s", err, out)
	}
	err = exec.Command(bin, "--check").Run()
	if e, ok := err.(*exec.ExitError); ok && e.ExitCode() == 77 {
		noLauncherReason = "no_wipeonfork --check: the seccomp filter cannot be installed here"
		return ""
	}
	if err != nil {
		t.Fatalf("no_wipeonfork --check: %v", err)
	}
	return bin
}

// The draws compared: each writes one unit of out; a unit of the child's
// equal to one of the parent's, or to an earlier one of its own (a wiped
// buffer's zeros), is a repeat. A version 7 UUID is compared
// twice: its 32 random bits (a buffer the child took over would repeat
// them) and its millisecond and counter (a child goes on from a later
// millisecond with a fresh counter, as after NewEpoch; one that went on
// with the parent's counter would give the parent's next values, within
// the millisecond of the draw before the fork).
//
// "Uint64 from the pool" is the path of a goroutine whose P has no slot, or
// whose slot holds more bytes than its stream: prepare leaves the P's slot
// full and the pool with a stream that holds bytes too (release moves a
// stream's bytes into the slot only when the slot holds fewer), so both
// parent and child draw from that stream.
type rawForkDraw struct {
	name    string
	unit    int
	count   int
	draw    func(out []byte)
	prepare func()
}

var rawForkDraws = []rawForkDraw{
	{"Uint64", 8, 64, func(out []byte) { binary.LittleEndian.PutUint64(out, Uint64()) }, nil},
	{"Uint64 from the pool", 8, 64, func(out []byte) { binary.LittleEndian.PutUint64(out, uint64Slow()) },
		func() { NewEpoch(); Uint64(); uint64Slow() }},
	{"Read 8 bytes", 8, 64, func(out []byte) { Read(out) }, nil},
	{"Reader.Read 24 bytes", 24, 24, func(out []byte) { Reader.Read(out) }, nil},
	{"Read 512 bytes (unbuffered)", 512, 4, func(out []byte) { Read(out) }, nil},
	{"NewUUID", 16, 32, func(out []byte) { u := NewUUID(); copy(out, u[:]) }, nil},
	{"NewUUIDv7 random bits", 4, 32, func(out []byte) { u := NewUUIDv7(); copy(out, u[12:]) }, nil},
	{"NewUUIDv7 millisecond and counter", 12, 32, func(out []byte) { u := NewUUIDv7(); copy(out, u[:12]) }, nil},
}

// rawForkHelper runs in the process started by TestRawForkChildRepeatsNothing.
// For each draw it fills the buffer it draws from, makes a child by a raw
// fork, and draws as much in parent and child (the one P's buffer, the same
// in both).
func rawForkHelper(t *testing.T) {
	got := forkDefenceForTest()
	fmt.Printf("fork defence: %s\n", got)
	if want := os.Getenv(rawForkHelperEnv); want != "any" && got != want {
		t.Fatalf("fork defence %q, want %q", got, want)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // also waits for a collection under way
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, d := range rawForkDraws {
		var child, parent []byte
		for try := 1; child == nil; try++ {
			if child, parent = forkAndDraw(t, d); child == nil {
				if try == 3 {
					t.Fatalf("%s: three children in a row stopped before writing their draws", d.name)
				}
				t.Logf("%s: the child stopped before writing its draws (killed); once more", d.name)
			}
		}
		seen := make(map[string]bool, d.count)
		for i := 0; i < len(parent); i += d.unit {
			seen[string(parent[i:i+d.unit])] = true
		}
		repeats := 0 // of the parent's values, or of the child's own (a wiped buffer's zeros)
		for i := 0; i < len(child); i += d.unit {
			if v := string(child[i : i+d.unit]); seen[v] {
				repeats++
			} else {
				seen[v] = true
			}
		}
		if repeats > 0 {
			t.Errorf("%s: %d of the child's %d values repeat the parent's or its own", d.name, repeats, d.count)
		}
	}
	if !t.Failed() {
		fmt.Println("raw-fork helper: ok")
	}
}

// forkAndDraw prepares and draws one unit, makes a child by a raw fork at
// once (a UUIDv7 then in the same millisecond, most of the time), and
// returns count units drawn in the child and count drawn in the parent
// after the fork. The child runs on the forking thread alone (the only one it has):
// it allocates nothing (the garbage collector is off), writes its draws to
// a pipe with the system call and leaves by the exit system call. A child
// that writes nothing in 30 s is killed and forkAndDraw returns nil: a
// goroutine preempted in the child waits for a thread that is not there
// (the runtime's monitor, in the parent, asks for that after 10 ms of
// running; the runtime.Gosched before the fork starts a new slice).
func forkAndDraw(t *testing.T, d rawForkDraw) (child, parent []byte) {
	unit, draw := d.unit, d.draw
	size := unit * d.count
	child, parent = make([]byte, size), make([]byte, size)
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	runtime.Gosched()
	if d.prepare != nil {
		d.prepare()
	}
	draw(parent[:unit]) // the buffer is filled before the fork
	pid := rawFork()
	if pid == 0 {
		for i := 0; i < size; i += unit {
			draw(child[i : i+unit])
		}
		status := uintptr(0)
		if n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fds[1]), uintptr(unsafe.Pointer(&child[0])),
			uintptr(size)); e != 0 || n != uintptr(size) {
			status = 1
		}
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, status, 0, 0)
	}
	syscall.Close(fds[1])
	if pid < 0 {
		syscall.Close(fds[0])
		t.Fatalf("the raw fork failed: %v", syscall.Errno(-pid))
	}
	for i := 0; i < size; i += unit {
		draw(parent[i : i+unit])
	}
	if err := syscall.SetNonblock(fds[0], true); err != nil { // for the deadline
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fds[0]), "the child's pipe")
	f.SetReadDeadline(time.Now().Add(30 * time.Second))
	n, err := io.ReadFull(f, child)
	f.Close()
	if errors.Is(err, os.ErrDeadlineExceeded) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	var ws syscall.WaitStatus
	if _, werr := syscall.Wait4(pid, &ws, 0, nil); werr != nil {
		t.Fatalf("wait4: %v", werr)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return nil, nil
	}
	if err != nil || !ws.Exited() || ws.ExitStatus() != 0 {
		t.Fatalf("the child gave %d of %d bytes (%v), status %v", n, size, err, ws)
	}
	return child, parent
}

// rawFork is fork(2) without the C library (no fork handler runs): clone
// with SIGCHLD alone, whose first argument is the flags on amd64 and
// arm64. It returns the child's pid in the parent, 0 in the child, or a
// negated errno.
func rawFork() int {
	r, _, e := syscall.RawSyscall6(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
	if e != 0 {
		return -int(e)
	}
	return int(r)
}
