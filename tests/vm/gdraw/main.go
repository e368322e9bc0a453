// SPDX-License-Identifier: MIT OR Apache-2.0

// Command gdraw is the Go front end in tests/vm's guest, built twice (pure
// Go and cgo, both static): it says which build it is, then for each line
// N on its standard input writes N words of the package's system generator
// (shakerand.Uint64), one per line in 16 hex digits.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	shakerand "github.com/shakerand/shakerand/go"
)

func main() {
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(out, "pure=%v watches_vm_generation=%v kernel=%s\n",
		shakerand.Pure, shakerand.WatchesVMGeneration(), shakerand.Kernel())
	out.Flush()
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		n, err := strconv.Atoi(strings.TrimSpace(in.Text()))
		if err != nil || n <= 0 {
			fmt.Fprintln(os.Stderr, "gdraw: want a count, got", in.Text())
			os.Exit(2)
		}
		for i := 0; i < n; i++ {
			fmt.Fprintf(out, "%016x\n", shakerand.Uint64())
		}
		out.Flush()
	}
}
