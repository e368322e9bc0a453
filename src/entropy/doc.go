// SPDX-License-Identifier: MIT OR Apache-2.0

// Package entropy is the shakerand C core's entropy back ends, compiled by
// cgo for the Go package github.com/shakerand/shakerand/go (see the core
// package, github.com/shakerand/shakerand/src). It has no Go API.
package entropy
