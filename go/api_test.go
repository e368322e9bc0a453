// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand_test

import (
	"bytes"
	cryptorand "crypto/rand"
	"encoding/json"
	"go/build"
	"go/importer"
	"go/token"
	"go/types"
	"math/big"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	shakerand "github.com/shakerand/shakerand/go"
)

// Every top-level function of math/rand/v2 (but its constructors) is here
// with the same signature, so that swapping the import compiles. The list
// comes from math/rand/v2's source, type-checked, not from a list written
// here.
func TestMathRandV2Parity(t *testing.T) {
	// The source importer runs the go command (go list) and reads the
	// sources: a test binary run away from a Go installation (cross-built
	// and run under Wine or on another machine) has neither. The check does
	// not depend on where the binary runs; the host's go test runs it.
	if goCmd := filepath.Join(build.Default.GOROOT, "bin", "go"); !haveCommand(goCmd) {
		t.Skipf("no go command at %s (a test binary run away from its Go installation): the source importer needs it", goCmd)
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	theirs, err := imp.Import("math/rand/v2")
	if err != nil {
		t.Fatal(err)
	}
	ours, err := imp.Import("github.com/shakerand/shakerand/go")
	if err != nil {
		t.Fatal(err)
	}
	names := func(p *types.Package) types.Qualifier {
		return func(*types.Package) string { return "" }
	}
	checked := 0
	for _, name := range theirs.Scope().Names() {
		fn, ok := theirs.Scope().Lookup(name).(*types.Func)
		if !ok || !fn.Exported() || strings.HasPrefix(name, "New") {
			continue
		}
		mine, ok := ours.Scope().Lookup(name).(*types.Func)
		if !ok {
			t.Errorf("math/rand/v2.%s is missing", name)
			continue
		}
		want := types.TypeString(fn.Type(), names(theirs))
		got := types.TypeString(mine.Type(), names(ours))
		if want != got {
			t.Errorf("%s: %s, math/rand/v2 has %s", name, got, want)
		}
		checked++
	}
	if checked < 19 {
		t.Fatalf("only %d functions compared", checked)
	}
}

func haveCommand(path string) bool {
	_, err := exec.LookPath(path)
	return err == nil
}

func TestReaderWithCryptoRand(t *testing.T) {
	max := new(big.Int).Lsh(big.NewInt(1), 200)
	v, err := cryptorand.Int(shakerand.Reader, max)
	if err != nil || v.Sign() < 0 || v.Cmp(max) >= 0 {
		t.Fatalf("crypto/rand.Int(shakerand.Reader): %v, %v", v, err)
	}
	p, err := cryptorand.Prime(shakerand.Reader, 256)
	if err != nil || p.BitLen() != 256 || !p.ProbablyPrime(20) {
		t.Fatalf("crypto/rand.Prime(shakerand.Reader): %v, %v", p, err)
	}
}

func TestUUIDType(t *testing.T) {
	u := shakerand.NewUUID()
	if u.Version() != 4 || u[8]>>6 != 2 {
		t.Fatalf("%s: version %d, variant bits %b", u, u.Version(), u[8]>>6)
	}
	if shakerand.NewUUIDv7().Version() != 7 {
		t.Fatal("NewUUIDv7 is not version 7")
	}
	p, err := shakerand.Parse(u.String())
	if err != nil || p != u {
		t.Fatalf("Parse(String()) = %v, %v", p, err)
	}
	if p, err := shakerand.Parse(strings.ToUpper(u.String())); err != nil || p != u {
		t.Fatalf("Parse of upper case: %v, %v", p, err)
	}
	for _, bad := range []string{"", "x", u.String()[1:], u.String() + "0",
		strings.Replace(u.String(), "-", "+", 1), "g" + u.String()[1:]} {
		if _, err := shakerand.Parse(bad); err == nil {
			t.Fatalf("Parse(%q) accepted", bad)
		}
	}
	j, err := json.Marshal(struct{ ID shakerand.UUID }{u})
	if err != nil || !bytes.Contains(j, []byte(`"`+u.String()+`"`)) {
		t.Fatalf("json: %s, %v", j, err)
	}
	var back struct{ ID shakerand.UUID }
	if err := json.Unmarshal(j, &back); err != nil || back.ID != u {
		t.Fatalf("json back: %v, %v", back.ID, err)
	}
	if err := back.ID.UnmarshalText([]byte("nope")); err == nil || back.ID != u {
		t.Fatal("a bad UnmarshalText changed the UUID or was accepted")
	}
	// github.com/google/uuid.UUID is a [16]byte: a conversion, no copy.
	if !reflect.TypeOf(u).ConvertibleTo(reflect.TypeOf([16]byte{})) {
		t.Fatal("UUID does not convert to [16]byte")
	}
}

func TestBuildReportsItself(t *testing.T) {
	k := shakerand.Kernel()
	if shakerand.Pure != (k == "purego") {
		t.Fatalf("Pure is %v but the kernel is %q", shakerand.Pure, k)
	}
}
