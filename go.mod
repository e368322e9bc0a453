// SPDX-License-Identifier: MIT OR Apache-2.0
module github.com/shakerand/shakerand

go 1.24
