// SPDX-License-Identifier: MIT OR Apache-2.0
//! The repository's vector file (vectors/shakerand.json, written from the
//! Python reference model), as every other language reads it: each engine's
//! chunks at their offsets and the SHA-256 of its first 64 KiB, then C2SP's
//! chacha8rand words (Go's math/rand/v2 ChaCha8), and the string seeds.
use rand_core::Rng;
use sha2::{Digest, Sha256};
use shakerand::{Engine, Kind};

/// SHAKERAND_VECTORS, else the packaged crate's copy (csrc/vectors), else
/// the repository's.
fn vectors() -> serde_json::Value {
    let packaged = concat!(env!("CARGO_MANIFEST_DIR"), "/csrc/vectors/shakerand.json");
    let path = std::env::var("SHAKERAND_VECTORS").unwrap_or_else(|_| {
        if std::path::Path::new(packaged).is_file() {
            packaged.to_string()
        } else {
            concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors/shakerand.json").to_string()
        }
    });
    serde_json::from_str(&std::fs::read_to_string(&path).expect("the vector file")).unwrap()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn every_engine_stream_of_the_vector_file() {
    let v = vectors();
    let mut checked = 0;
    for entry in v["engines"].as_array().unwrap() {
        let kind = Kind::from_name(entry["engine"].as_str().unwrap()).expect("a known kind");
        let seed = hex(entry["seed_hex"].as_str().unwrap());
        let chunks = entry["chunks"].as_array().unwrap();
        let end = chunks
            .iter()
            .map(|c| c["offset"].as_u64().unwrap() as usize + 64)
            .max()
            .unwrap()
            .max(65536);
        let mut stream = vec![0u8; end];
        // In odd pieces, so the engines' block boundaries fall mid-call.
        let mut e = Engine::new(kind, &seed).unwrap();
        let mut at = 0;
        for piece in [1usize, 7, 63, 1000, 4093].iter().cycle() {
            let n = (*piece).min(end - at);
            e.fill_bytes(&mut stream[at..at + n]);
            at += n;
            if at == end {
                break;
            }
        }
        for c in chunks {
            let off = c["offset"].as_u64().unwrap() as usize;
            assert_eq!(
                stream[off..off + 64],
                hex(c["hex"].as_str().unwrap())[..],
                "{} at {off}",
                kind.name()
            );
        }
        let digest = Sha256::digest(&stream[..65536]);
        assert_eq!(
            digest[..],
            hex(entry["sha256_of_first_65536"].as_str().unwrap())[..],
            "{}",
            kind.name()
        );
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} streams in the vector file");
}

#[test]
fn c2sp_chacha8rand_is_gos_chacha8() {
    let v = vectors();
    let c = &v["c2sp_chacha8rand"];
    let mut e = Engine::new(Kind::ChaCha8Rand, hex(c["seed_hex"].as_str().unwrap())).unwrap();
    let words = c["uint64_hex"].as_array().unwrap();
    assert!(words.len() >= 32);
    for (i, w) in words.iter().enumerate() {
        assert_eq!(
            e.next_u64(),
            u64::from_str_radix(w.as_str().unwrap(), 16).unwrap(),
            "word {i}"
        );
    }
}

#[test]
fn seedable_chacha8rand_is_the_c2sp_stream_and_the_engine_s() {
    use rand_core::SeedableRng;
    let v = vectors();
    let c = &v["c2sp_chacha8rand"];
    let seed: [u8; 32] = hex(c["seed_hex"].as_str().unwrap()).try_into().unwrap();
    let mut rng = shakerand::ChaCha8Rand::from_seed(seed);
    let first = u64::from_str_radix(c["uint64_hex"][0].as_str().unwrap(), 16).unwrap();
    assert_eq!(rng.next_u64(), first);
    assert_eq!(rng.kind(), Kind::ChaCha8Rand);
    // The rest of the stream and the samplers are the engine's.
    let mut engine = Engine::new(Kind::ChaCha8Rand, seed.as_slice()).unwrap();
    let _ = engine.next_u64();
    let (mut a, mut b) = ([0u8; 1000], [0u8; 1000]);
    rng.fill_bytes(&mut a);
    engine.fill_bytes(&mut b);
    assert_eq!(a, b);
    assert_eq!(
        rng.below_u64(1000).unwrap(),
        engine.below_u64(1000).unwrap()
    );
}

#[test]
fn string_seeds_are_their_utf8_bytes() {
    // docs/engines.md, "Seeds": a &str or String seed is its UTF-8 bytes.
    let v = vectors();
    let cases = v["string_seeds"].as_array().unwrap();
    assert_eq!(cases.len(), Kind::ALL.len());
    for c in cases {
        let kind = Kind::from_name(c["engine"].as_str().unwrap()).expect("a known kind");
        let text = c["seed_text"].as_str().unwrap();
        let want = c["first_64_hex"].as_str().unwrap();
        let first_64 = |mut e: Engine| {
            let mut out = [0u8; 64];
            e.fill_bytes(&mut out);
            out.iter().map(|b| format!("{b:02x}")).collect::<String>()
        };
        assert_eq!(first_64(Engine::new(kind, text).unwrap()), want, "{text}");
        let owned: String = text.into();
        assert_eq!(first_64(Engine::new(kind, owned).unwrap()), want, "{text}");
        let bytes = hex(c["seed_hex"].as_str().unwrap());
        assert_eq!(first_64(Engine::new(kind, &bytes).unwrap()), want, "{text}");
    }
}

#[test]
fn the_kind_table_is_the_core_s() {
    let v = vectors();
    let kinds = v["kinds"].as_array().unwrap();
    assert_eq!(kinds.len(), Kind::ALL.len());
    for (k, entry) in Kind::ALL.iter().zip(kinds) {
        assert_eq!(k.name(), entry["name"].as_str().unwrap());
        assert_eq!(
            k.seed_size().unwrap_or(0) as u64,
            entry["seed_size"].as_u64().unwrap()
        );
    }
}

#[test]
fn a_chacha8rand_seed_of_another_length_is_an_error() {
    let err = Engine::new(Kind::ChaCha8Rand, [0u8; 31]).unwrap_err();
    assert_eq!(err.code(), -1);
    assert!(!err.to_string().is_empty());
    assert!(Engine::new(Kind::TurboShake256, []).is_ok());
}
