// SPDX-License-Identifier: MIT OR Apache-2.0

// A program outside the shakerand module that uses it from this checkout:
// go.mod says `replace github.com/shakerand/shakerand => ../..` (made by
// `go mod edit -replace` and `go mod tidy`, README "Use it from a
// checkout"). Run it with `go run .` here.
package main

import (
	"encoding/hex"
	"fmt"
	"os"

	shakerand "github.com/shakerand/shakerand/go"
)

func main() {
	// The top-level functions are math/rand/v2's, on a secure generator.
	fmt.Println("die    ", shakerand.IntN(6)+1)
	token := make([]byte, 16)
	shakerand.Read(token) // like crypto/rand.Read: always fills
	fmt.Println("token  ", hex.EncodeToString(token))
	fmt.Println("uuid   ", shakerand.NewUUID())

	// A seeded Source: the same stream as the C engine, the CLI and the
	// other front ends (and, for ChaCha8Rand, math/rand/v2's ChaCha8).
	seed := make([]byte, 32)
	for i := range seed {
		seed[i] = byte(i)
	}
	s := shakerand.NewSeeded(shakerand.ChaCha8Rand, seed)
	got := make([]byte, 16)
	s.Read(got)
	fmt.Println("seeded ", hex.EncodeToString(got))
	if want := "db9c412e11a2fdadddfe0e8df43bb39a"; hex.EncodeToString(got) != want {
		fmt.Fprintln(os.Stderr, "quickstart: the seeded stream differs from the known one:", want)
		os.Exit(1)
	}
	fmt.Println("kernel ", shakerand.Kernel())
}
