// SPDX-License-Identifier: MIT OR Apache-2.0

//go:build cgo

package core

// cgo compiles every C file of this directory (the core's sources, the
// list in sources.txt; cmake/check_core_sources.cmake checks the two
// agree), and the go command hashes them, so an edit to a .c file rebuilds
// this package. Headers are a package's files too, but an edit to a header
// alone may leave the packages that include it cached (a reviewer showed
// it for include/ and src/entropy/): build with -a after one.

/*
#cgo CFLAGS: -I${SRCDIR}/../include -O3 -DNDEBUG -std=c11 -fvisibility=hidden -Werror=implicit-function-declaration -DSHAKERAND_BUILDING
#cgo linux LDFLAGS: -lpthread
*/
import "C"

import _ "github.com/shakerand/shakerand/include" // the public header
