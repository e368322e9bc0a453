// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package core

// cgo compiles every C file of this directory (the core's sources, the
// list in sources.txt; the Go test TestCgoCompilesTheCoreList checks the two
// agree). Importing include and, from entropy, this package puts the
// headers' files into the build cache's key for every package that
// compiles them, so an edit to any file of the core rebuilds them.

/*
#cgo CFLAGS: -I${SRCDIR}/../include -O3 -DNDEBUG -std=c11 -DSHAKERAND_BUILDING
#cgo amd64 CFLAGS: -DSHAKERAND_HAVE_X86_64_KERNELS
#cgo linux LDFLAGS: -lpthread
*/
import "C"

import _ "github.com/shakerand/shakerand/include" // the public header
