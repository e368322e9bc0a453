// SPDX-License-Identifier: MIT OR Apache-2.0
//! Compiles the C core with the `cc` crate: the files `src/sources.txt`
//! lists (every build reads that list), each enabling its own instruction
//! sets by target attributes, so no per-file flags. In the repository the
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
    let mut build = cc::Build::new();
    // The options every build of the core uses (python/setup.py's
    // build_options, CMakeLists.txt's shakerand_c11).
    build
        .std("c11")
        .opt_level(3)
        .define("SHAKERAND_BUILDING", None)
        .flag_if_supported("-fvisibility=hidden")
        .include(root.join("include"))
        .include(root.join("src"));
    for line in std::fs::read_to_string(&list)
        .expect("src/sources.txt")
        .lines()
    {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        build.file(root.join(line));
        println!("cargo:rerun-if-changed={}", root.join(line).display());
    }
    for dir in ["src", "include"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
    build.compile("shakerand_core");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("windows") {
        println!("cargo:rustc-link-lib=bcrypt");
    }
}
