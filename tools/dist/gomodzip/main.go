// SPDX-License-Identifier: MIT OR Apache-2.0

// Command gomodzip writes a module's files in Go's module proxy layout
// (<dir>/<module path>/@v/{list,vX.Y.Z.info,.mod,.zip}), the zip made by
// golang.org/x/mod/zip from a git revision as proxy.golang.org makes it:
// the module@version/ prefix, only the module's tracked files (no vendor/,
// no nested modules), its size limits checked.
//
//	gomodzip REPO_ROOT REVISION MODULE_PATH vX.Y.Z UNIX_TIME OUT_DIR
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gomodzip:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 6 {
		return fmt.Errorf("usage: gomodzip REPO_ROOT REVISION MODULE_PATH vX.Y.Z UNIX_TIME OUT_DIR")
	}
	root, rev, path, version, unix, out := args[0], args[1], args[2], args[3], args[4], args[5]
	mv := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err
	}
	secs, err := strconv.ParseInt(unix, 10, 64)
	if err != nil {
		return err
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	dir := filepath.Join(out, escaped, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var z bytes.Buffer
	if err := zip.CreateFromVCS(&z, mv, root, rev, ""); err != nil {
		return err
	}
	// The .mod file is the go.mod at that revision, byte for byte.
	mod, err := exec.Command("git", "-C", root, "show", rev+":go.mod").Output()
	if err != nil {
		return fmt.Errorf("git show %s:go.mod: %v", rev, err)
	}
	info, err := json.Marshal(struct {
		Version string
		Time    string
	}{version, time.Unix(secs, 0).UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	files := []struct {
		name string
		data []byte
	}{
		{version + ".zip", z.Bytes()},
		{version + ".mod", mod},
		{version + ".info", append(info, '\n')},
		{"list", []byte(version + "\n")},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
