// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package entropy

// The entropy back ends (every C file of this directory; ../core.go says
// why they are a Go package). They include ../entropy.h and ../internal.h:
// importing the core package makes those part of this package's build key.

/*
#cgo CFLAGS: -I${SRCDIR}/../../include -O3 -DNDEBUG -std=c11 -fvisibility=hidden -Werror=implicit-function-declaration -DSHAKERAND_BUILDING
#cgo windows LDFLAGS: -lbcrypt
*/
import "C"

import _ "github.com/shakerand/shakerand/src" // the headers of ../
