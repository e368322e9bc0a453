/* cgo compiles only the C files of the package directory: this one brings
 * in the core's src/entropy.c unchanged. */
#include "../src/entropy.c"
