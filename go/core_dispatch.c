/* cgo compiles only the C files of the package directory: this one brings
 * in the core's src/dispatch.c unchanged. */
#include "../src/dispatch.c"
