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
	// StringSeeds gives, for each kind, a seed given as a string: its
	// UTF-8 bytes are the seed (docs/engines.md, "Seeds").
	StringSeeds []StringSeed `json:"string_seeds"`
	// SystemPolicy is the system generator's policy (src/policy.h,
	// docs/system.md) as the reference model records it.
	SystemPolicy SystemPolicy `json:"system_policy"`
}

// SystemPolicy is the "system_policy" section: its values by name
// (reseed_bytes, reseed_seconds, clock_check_bytes, the derivation's sizes
// and domain bytes, ...), every one the file has, so a test can tell a value
// it does not hold; and the derivation's known answers.
type SystemPolicy struct {
	Values     map[string]uint64
	Derivation []SystemDerivation
}

// SystemDerivation is one known answer of the seed derivation: the
// conditioner's material for OS bytes and a counter (no hardware words),
// and each engine's seed from it, with the digest of the caller's bytes
// appended when ExtraHex is not nil.
type SystemDerivation struct {
	OSHex                  string  `json:"os_hex"`
	Counter                uint64  `json:"counter"`
	ExtraHex               *string `json:"extra_hex"`
	MaterialHex            string  `json:"material_hex"`
	ChaCha8RandKeyHex      string  `json:"chacha8rand_key_hex"`
	TurboSHAKE256x8SeedHex string  `json:"turboshake256x8_seed_hex"`
}

// UnmarshalJSON reads the section's derivation and every other key as a
// number.
func (p *SystemPolicy) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if err := json.Unmarshal(raw["derivation"], &p.Derivation); err != nil {
		return fmt.Errorf("system_policy.derivation: %w", err)
	}
	delete(raw, "derivation")
	p.Values = make(map[string]uint64, len(raw))
	for k, v := range raw {
		var n uint64
		if err := json.Unmarshal(v, &n); err != nil {
			return fmt.Errorf("system_policy.%s: %w", k, err)
		}
		p.Values[k] = n
	}
	return nil
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

// StringSeed is a seed given as text (encoding/json decodes it to UTF-8),
// the bytes it stands for, and the stream's first 64 bytes.
type StringSeed struct {
	Engine     string `json:"engine"`
	SeedText   string `json:"seed_text"`
	SeedHex    string `json:"seed_hex"`
	First64Hex string `json:"first_64_hex"`
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
	case len(f.StringSeeds) == 0:
		return nil, fmt.Errorf("%s: no string_seeds", p)
	case len(f.SystemPolicy.Values) == 0 || len(f.SystemPolicy.Derivation) == 0:
		return nil, fmt.Errorf("%s: no system_policy", p)
	}
	return &f, nil
}
