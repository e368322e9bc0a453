/* cgo compiles only the C files of the package directory: this one brings
 * in the core's src/system.c unchanged. */
#include "../src/system.c"
