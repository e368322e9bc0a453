// SPDX-License-Identifier: MIT OR Apache-2.0

// Package peer benchmarks third-party Go packages beside shakerand, in a
// module of its own so that the shakerand module keeps no dependencies
// (its go.mod here also cuts this directory out of the shakerand module).
package peer

import (
	"testing"

	"github.com/google/uuid"
	shakerand "github.com/shakerand/shakerand/go"
)

var sink [16]byte

// google/uuid's NewRandom reads 16 bytes from crypto/rand per UUID.
func BenchmarkGoogleUUIDNewRandom(b *testing.B) {
	for i := 0; i < b.N; i++ {
		u, err := uuid.NewRandom()
		if err != nil {
			b.Fatal(err)
		}
		sink = u
	}
}

// The same as go/bench_test.go's BenchmarkUUID, for the same run.
func BenchmarkShakerandUUID(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = shakerand.NewUUID()
	}
}
