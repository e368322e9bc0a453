// SPDX-License-Identifier: MIT OR Apache-2.0

package shakerand

/*
#cgo CFLAGS: -I${SRCDIR}/../include -I${SRCDIR}/../src -O3 -DNDEBUG -std=c11 -DSHAKERAND_BUILDING
#cgo amd64 CFLAGS: -DSHAKERAND_HAVE_X86_64_KERNELS
#cgo linux LDFLAGS: -lpthread
#include <stdlib.h>
#include "shakerand.h"
*/
import "C"
