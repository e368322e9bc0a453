// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	cryptorand "crypto/rand"
	"crypto/sha256"
	"fmt"
	"io"
	"math/big"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A program that sets crypto/rand.Reader = shakerand.Reader (to make every
// crypto call fast) draws, reseeds and makes an ECDSA key. Since Go 1.24
// crypto/rand.Read reads whatever crypto/rand.Reader is, so a system
// generator that seeded itself through crypto/rand would call itself until
// the stack overflowed (a fatal error, which no test can recover from:
// hence a child process), or be fed its own output.
//
// The child is this test binary, so it runs in the build under test (cgo
// or pure Go), once with GODEBUG=cryptocustomrand=1 and once with =0:
// since Go 1.26 ecdsa.GenerateKey ignores its reader unless that setting
// is 1 (it is by default for a main module declaring go < 1.26, as this
// one does), while crypto/rand.Read and crypto/rand.Int read the replaced
// Reader either way.
const replacedReaderChildEnv = "SHAKERAND_TEST_REPLACED_READER_CHILD"

func TestReplacedCryptoRandReader(t *testing.T) {
	if os.Getenv(replacedReaderChildEnv) == "1" {
		replacedReaderChild(t)
		return
	}
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skipf("no child processes on %s", runtime.GOOS)
	}
	for _, setting := range []string{"cryptocustomrand=1", "cryptocustomrand=0"} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestReplacedCryptoRandReader$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), replacedReaderChildEnv+"=1", "GODEBUG="+setting)
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil && cmd.ProcessState == nil {
			// It never started: under qemu-user without binfmt_misc
			// (as tools/go/run-tests.sh runs the suite on arm64 and
			// s390x) the kernel cannot run this binary; the native runs
			// cover the test.
			t.Skipf("this binary cannot start itself here: %v", err)
		}
		if err != nil || !bytes.Contains(out, []byte("replaced-reader child: ok")) {
			t.Fatalf("GODEBUG=%s: the child with crypto/rand.Reader = shakerand.Reader failed (%v):\n%s",
				setting, err, firstLines(out, 30))
		}
		t.Logf("GODEBUG=%s: %s", setting, bytes.TrimSpace(grepLine(out, "replaced-reader child: ok")))
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n.Add(int64(n))
	return n, err
}

func replacedReaderChild(t *testing.T) {
	cryptorand.Reader = Reader
	max := new(big.Int).Lsh(big.NewInt(1), 255)

	// The first draws seed the system generator: a word, a large read
	// (straight to the generator) and a small one, then crypto/rand's own
	// functions over the replaced Reader.
	_ = Uint64()
	large := make([]byte, 1<<20)
	Read(large)
	small := make([]byte, 32)
	Read(small)
	cryptorand.Read(small)
	if v, err := cryptorand.Int(cryptorand.Reader, max); err != nil || v.Cmp(max) >= 0 {
		t.Fatalf("crypto/rand.Int: %v, %v", v, err)
	}

	// A reseed, then the same draws again.
	reseeded := forceReseedForTest()
	_ = Uint64()
	Read(large)
	cryptorand.Read(small)
	if !reseeded() {
		t.Fatal("no system state reseeded after forceReseedForTest")
	}

	key, err := ecdsa.GenerateKey(elliptic.P256(), cryptorand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	digest := sha256.Sum256([]byte("shakerand"))
	sig, err := ecdsa.SignASN1(cryptorand.Reader, key, digest[:])
	if err != nil || !ecdsa.VerifyASN1(&key.PublicKey, digest[:], sig) {
		t.Fatalf("ECDSA signature: %v", err)
	}

	// That the draws went through shakerand: with a counting wrapper of
	// Reader in crypto/rand.Reader's place, crypto/rand.Read and Int read
	// through it (and ecdsa.GenerateKey, where GODEBUG lets it), and a
	// reseed reads nothing through it: it goes to the operating system.
	c := &countingReader{r: Reader}
	cryptorand.Reader = c
	cryptorand.Read(small)
	if got := c.n.Load(); got != int64(len(small)) {
		t.Fatalf("crypto/rand.Read of %d bytes read %d through the replaced Reader", len(small), got)
	}
	before := c.n.Load()
	if _, err := cryptorand.Int(cryptorand.Reader, max); err != nil || c.n.Load() == before {
		t.Fatalf("crypto/rand.Int read nothing through the replaced Reader (%v)", err)
	}
	before = c.n.Load()
	if _, err := ecdsa.GenerateKey(elliptic.P256(), cryptorand.Reader); err != nil {
		t.Fatal(err)
	}
	custom := strings.Contains(os.Getenv("GODEBUG"), "cryptocustomrand=1")
	if read := c.n.Load() > before; read != custom {
		t.Fatalf("ecdsa.GenerateKey read through the replaced Reader: %v, with GODEBUG=%q", read, os.Getenv("GODEBUG"))
	}
	before = c.n.Load()
	reseeded = forceReseedForTest()
	_ = Uint64()
	Read(large)
	if !reseeded() {
		t.Fatal("no system state reseeded after the second forceReseedForTest")
	}
	if got := c.n.Load() - before; got != 0 {
		t.Fatalf("a reseed read %d bytes through crypto/rand.Reader", got)
	}
	fmt.Printf("replaced-reader child: ok (pure Go: %v; ecdsa.GenerateKey read the Reader: %v)\n", Pure, custom)
}

func firstLines(b []byte, n int) []byte {
	lines := bytes.SplitAfterN(b, []byte("\n"), n+1)
	if len(lines) > n {
		lines = append(lines[:n], []byte("...\n"))
	}
	return bytes.Join(lines, nil)
}

func grepLine(b []byte, s string) []byte {
	for _, l := range bytes.Split(b, []byte("\n")) {
		if bytes.Contains(l, []byte(s)) {
			return l
		}
	}
	return nil
}
