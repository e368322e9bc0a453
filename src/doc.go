// SPDX-License-Identifier: MIT OR Apache-2.0

// Package core is the shakerand C core, compiled by cgo for the Go package
// github.com/shakerand/shakerand/go, which imports it (and its entropy
// package) for their side effect: the C code. It has no Go API. Being a Go
// package is what makes `go mod vendor` copy the C sources, and the go
// command hash them. Without cgo it is empty: the pure-Go build does not
// import it.
package core
