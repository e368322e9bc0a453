/* cgo compiles only the C files of the package directory: this one brings
 * in the core's src/keccakp1600_portable.c unchanged. */
#include "../src/keccakp1600_portable.c"
