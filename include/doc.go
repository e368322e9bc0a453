// SPDX-License-Identifier: MIT OR Apache-2.0

// Package include holds the shakerand C headers. It has no Go API: it is a
// Go package so that `go mod vendor` copies the headers (an edit to one
// does not by itself rebuild the packages that include it: see
// ../src/core.go).
package include
