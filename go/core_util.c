/* cgo compiles only the C files of the package directory: this one brings
 * in the core's src/util.c unchanged. */
#include "../src/util.c"
