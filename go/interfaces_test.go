// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand_test

import (
	"io"
	mathrand "math/rand"
	randv2 "math/rand/v2"

	shakerand "github.com/shakerand/shakerand/go"
)

// *Source is a math/rand/v2 Source, a math/rand Source64 and an io.Reader;
// Reader is an io.Reader. Checked at compile time.
var (
	_ randv2.Source                = (*shakerand.Source)(nil)
	_ mathrand.Source64            = (*shakerand.Source)(nil)
	_ io.Reader                    = (*shakerand.Source)(nil)
	_ io.Reader                    = shakerand.Reader
	_ interface{ String() string } = shakerand.UUID{}
)
