// SPDX-License-Identifier: MIT OR Apache-2.0
//! Prints the kernel the core runs here (SHAKERAND_KERNEL can force one).
fn main() {
    println!("{}", shakerand::kernel());
}
