// SPDX-License-Identifier: MIT OR Apache-2.0
module github.com/shakerand/shakerand/bench/go-peer

go 1.24

require (
	github.com/google/uuid v1.6.0
	github.com/shakerand/shakerand v0.0.0
)

replace github.com/shakerand/shakerand => ../..
