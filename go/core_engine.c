/* cgo compiles only the C files of the package directory: this one brings
 * in the core's src/engine.c unchanged. */
#include "../src/engine.c"
