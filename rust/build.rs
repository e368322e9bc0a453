// SPDX-License-Identifier: MIT OR Apache-2.0
//! Compiles the C core with the `cc` crate: the files `src/sources.txt`
//! lists with the options of `src/compile_options.txt` (every build reads
//! those lists), each file enabling its own instruction sets by target
//! attributes, so no per-file flags. In the repository the
//! core is `../src` and `../include`; a packaged crate carries them in
//! `csrc/` (tools/rust-package.sh copies them there).
use std::path::PathBuf;

fn main() {
    // getrandom's switch, which the tests and the bench read.
    println!("cargo::rustc-check-cfg=cfg(getrandom_backend, values(any()))");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let packaged = manifest.join("csrc");
    let root = if packaged.join("src/sources.txt").is_file() {
        packaged
    } else {
        manifest.join("..")
    };
    let list = root.join("src/sources.txt");
    println!("cargo:rerun-if-changed={}", list.display());
    let options = root.join("src/compile_options.txt");
    println!("cargo:rerun-if-changed={}", options.display());
    let mut build = cc::Build::new();
    build
        .include(root.join("include"))
        .include(root.join("src"));
    // The options every build of the core uses: src/compile_options.txt,
    // read by CMake and python/setup.py too.
    for option in listed(&options) {
        if let Some(std) = option.strip_prefix("-std=") {
            build.std(std);
        } else if let Some(level) = option.strip_prefix("-O") {
            build.opt_level_str(level);
        } else if let Some(name) = option.strip_prefix("-D") {
            build.define(name, None);
        } else {
            build.flag_if_supported(option);
        }
    }
    for file in listed(&list) {
        build.file(root.join(&file));
        println!("cargo:rerun-if-changed={}", root.join(&file).display());
    }
    for dir in ["src", "include"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
    build.compile("shakerand_core");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("windows") {
        println!("cargo:rustc-link-lib=bcrypt");
    }
}

/// The lines of one of the core's lists (src/sources.txt,
/// src/compile_options.txt): blank lines and `#` comments left out.
fn listed(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(String::from)
        .collect()
}
