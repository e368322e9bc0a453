module github.com/shakerand/shakerand

go 1.24
