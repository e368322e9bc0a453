/* cgo compiles only the C files of the package directory: this one brings
 * in the core's src/uuid.c unchanged. */
#include "../src/uuid.c"
