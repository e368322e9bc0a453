// SPDX-License-Identifier: MIT OR Apache-2.0
//! The same values as the C command-line tool for the same seed (the
//! cross-language check the Python and JavaScript suites make too): engine
//! bytes of every kind, and big integers below a bound by every method.
//! The tool is named by SHAKERAND_CLI (make test-rust sets it); without
//! it these tests say so and pass, unless SHAKERAND_REQUIRE_CLI=1.
use shakerand::{Engine, Kind, Method};
use std::process::Command;

fn cli() -> Option<String> {
    match std::env::var("SHAKERAND_CLI") {
        Ok(path) if !path.is_empty() => Some(path),
        _ => {
            assert_ne!(
                std::env::var("SHAKERAND_REQUIRE_CLI").as_deref(),
                Ok("1"),
                "SHAKERAND_REQUIRE_CLI=1 and no SHAKERAND_CLI"
            );
            eprintln!("no SHAKERAND_CLI: the C tool's values are not compared");
            None
        }
    }
}

fn run(cli: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new(cli)
        .args(args)
        .output()
        .expect("the C tool runs");
    assert!(out.status.success(), "{cli} {args:?}: {:?}", out);
    out.stdout
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A fixed, patterned seed of n bytes (the Python suite's `ptn`).
fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

#[test]
fn engine_bytes_equal_the_c_tool_s() {
    let Some(cli) = cli() else { return };
    for kind in Kind::ALL {
        let mut seeds = vec![pattern(32), vec![0; 32], vec![0xff; 32]];
        if kind.seed_size().is_none() {
            seeds.extend([vec![], pattern(136), b"x".to_vec()]);
        }
        for seed in &seeds {
            for n in [1usize, 1000, 5000] {
                let c = run(
                    &cli,
                    &[
                        "bytes",
                        "-n",
                        &n.to_string(),
                        "--engine",
                        kind.name(),
                        "--seed",
                        &hex(seed),
                    ],
                );
                let mut rust = vec![0u8; n];
                rand_core::Rng::fill_bytes(&mut Engine::new(kind, seed).unwrap(), &mut rust);
                assert_eq!(c, rust, "{} seed {} n {n}", kind.name(), hex(seed));
            }
        }
    }
}

#[test]
fn big_integers_below_a_bound_equal_the_c_tool_s_by_every_method() {
    let Some(cli) = cli() else { return };
    let seed = pattern(20);
    // 1, 6, 2^64, 3^50 and 2^512 - 569 (a prime), big-endian.
    let bounds: [&str; 5] = [
        "01",
        "06",
        "010000000000000000",
        "980553f0db2fd09de3c9",
        "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffdc7",
    ];
    let methods = [
        (Method::RngBc1, "rng-bc-1"),
        (Method::RngBc8, "rng-bc-8"),
        (Method::SimpleDiscard, "simple-discard"),
        (Method::SimpleModular, "simple-modular"),
    ];
    for bound in bounds {
        let r: Vec<u8> = (0..bound.len() / 2)
            .map(|i| u8::from_str_radix(&bound[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        for (method, name) in methods {
            let c = String::from_utf8(run(
                &cli,
                &[
                    "int",
                    "--below",
                    &format!("0x{bound}"),
                    "-n",
                    "20",
                    "--hex",
                    "-m",
                    name,
                    "--seed",
                    &hex(&seed),
                ],
            ))
            .unwrap();
            let mut engine = Engine::new(Kind::TurboShake256, &seed).unwrap();
            let rust: Vec<String> = (0..20)
                .map(|_| {
                    let v = hex(&engine.below_bytes_with(method, &r).unwrap());
                    let v = v.trim_start_matches('0');
                    if v.is_empty() {
                        "0".to_string()
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            assert_eq!(
                c.split_whitespace().collect::<Vec<_>>(),
                rust,
                "{name} below 0x{bound}"
            );
        }
    }
}
