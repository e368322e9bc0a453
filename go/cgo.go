// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

// The C core is compiled by cgo in its own Go packages (src/doc.go says
// why); these imports link it in.

/*
#cgo CFLAGS: -I${SRCDIR}/../include -I${SRCDIR}/../src -O3 -DNDEBUG -std=c11 -DSHAKERAND_BUILDING
#cgo amd64 CFLAGS: -DSHAKERAND_HAVE_X86_64_KERNELS
#cgo linux LDFLAGS: -lpthread
#include <stdlib.h>
#include "shakerand.h"
*/
import "C"

import (
	_ "github.com/shakerand/shakerand/src"
	_ "github.com/shakerand/shakerand/src/entropy"
)
