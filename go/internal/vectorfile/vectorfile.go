// SPDX-License-Identifier: MIT OR Apache-2.0

// Package vectorfile reads vectors/shakerand.json, the vectors every front
// end is held to, for the tests of the Go package and of internal/purego:
// one reader of the file in Go. Only tests import it.
package vectorfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// File is the vector file's content.
type File struct {
	// Kinds is the C core's table of engine kinds (src/engine.c
	// kind_rows), in its order, as the reference model holds it.
	Kinds   []KindRow `json:"kinds"`
	Engines []Engine  `json:"engines"`
	// C2SP is the test vector published with the C2SP chacha8rand
	// specification: the first Uint64 values for its seed, as
	// hexadecimal numbers.
	C2SP struct {
		SeedHex   string   `json:"seed_hex"`
		Uint64Hex []string `json:"uint64_hex"`
	} `json:"c2sp_chacha8rand"`
}

// KindRow is one row of the table of kinds.
type KindRow struct {
	Name      string `json:"name"`
	Value     int    `json:"value"`
	SeedSize  int    `json:"seed_size"`  // the exact seed length, or 0: any length
	BlockSize int    `json:"block_size"` // bytes handed out between ratchets or rekeys
}

// Engine is one engine stream: its first 65536 bytes for a seed.
type Engine struct {
	Engine  string `json:"engine"`
	SeedHex string `json:"seed_hex"`
	Chunks  []struct {
		Offset int    `json:"offset"`
		Hex    string `json:"hex"`
	} `json:"chunks"`
	SHA256 string `json:"sha256_of_first_65536"`
}

// Path is SHAKERAND_VECTORS if set, else vectors/shakerand.json in the
// nearest directory above the working directory that has it: a test runs
// in its package's directory, which is go/ or below it in a checkout.
func Path() (string, error) {
	if p := os.Getenv("SHAKERAND_VECTORS"); p != "" {
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "vectors", "shakerand.json")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no vectors/shakerand.json above the working directory (set SHAKERAND_VECTORS)")
		}
		dir = parent
	}
}

// Load reads and decodes the file at Path, and fails if a section the tests
// rely on is empty.
func Load() (*File, error) {
	p, err := Path()
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var f File
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	switch {
	case len(f.Kinds) == 0:
		return nil, fmt.Errorf("%s: no kinds", p)
	case len(f.Engines) == 0:
		return nil, fmt.Errorf("%s: no engine vectors", p)
	case len(f.C2SP.Uint64Hex) == 0:
		return nil, fmt.Errorf("%s: no c2sp_chacha8rand vector", p)
	}
	return &f, nil
}
