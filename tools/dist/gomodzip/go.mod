// SPDX-License-Identifier: MIT OR Apache-2.0
module github.com/shakerand/shakerand/tools/dist/gomodzip

go 1.24

require golang.org/x/mod v0.25.0
