/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* cgo compiles only the package directory's C files: this one brings in
 * src/keccakp1600_bmi2.c (one wrapper per line of src/sources.txt). */
#include "../src/keccakp1600_bmi2.c"
