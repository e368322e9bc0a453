// SPDX-License-Identifier: MIT OR Apache-2.0
module example.com/quickstart

go 1.24

replace github.com/shakerand/shakerand => ../..

require github.com/shakerand/shakerand v0.0.0-00010101000000-000000000000
