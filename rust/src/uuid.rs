// SPDX-License-Identifier: MIT OR Apache-2.0
//! UUIDs as the `uuid` crate's type (the `uuid` feature), from the system
//! generator: drop-in for `Uuid::new_v4()` and `Uuid::now_v7()`.

/// [`crate::uuid_v4`] as a [`::uuid::Uuid`].
pub fn new_v4() -> ::uuid::Uuid {
    ::uuid::Uuid::from_bytes(crate::uuid_v4())
}

/// [`crate::uuid_v7`] as a [`::uuid::Uuid`].
pub fn now_v7() -> ::uuid::Uuid {
    ::uuid::Uuid::from_bytes(crate::uuid_v7())
}
