/* cgo compiles only the C files of the package directory: this one brings
 * in the core's src/xof.c unchanged. */
#include "../src/xof.c"
