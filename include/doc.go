// SPDX-License-Identifier: MIT OR Apache-2.0

// Package include holds the shakerand C headers. It has no Go API: it is a
// Go package so that `go mod vendor` copies the headers, and so that the
// packages that compile against them (github.com/shakerand/shakerand/src
// and .../go) are rebuilt when a header changes.
package include
