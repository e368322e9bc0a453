/* cgo compiles only the C files of the package directory: this one brings
 * in the core's src/samplers.c unchanged. */
#include "../src/samplers.c"
