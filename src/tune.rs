//! Tunable constants for tuning matches: `tune(name, default)` is
//! `default`, or with the `tune` cargo feature the value of the
//! environment variable `PLY_<NAME>` when set, so that a match can try
//! values without a rebuild. Normal builds never read the environment.
//! Below every layer: search and games both name their constants here.

/// A tunable constant: `default`, or with the `tune` feature the value of
/// the environment variable `PLY_<NAME>` when set, so that a tuning match
/// can try values without a rebuild. Release builds never read it.
#[cfg(feature = "tune")]
pub fn tune(name: &str, default: i32) -> i32 {
    use std::sync::OnceLock;
    static VALUES: OnceLock<std::collections::HashMap<String, i32>> = OnceLock::new();
    let values = VALUES.get_or_init(|| {
        std::env::vars()
            .filter_map(|(k, v)| Some((k.strip_prefix("PLY_")?.to_string(), v.parse().ok()?)))
            .collect()
    });
    values.get(name).copied().unwrap_or(default)
}

/// A tunable constant: `default` (see the `tune` feature).
#[cfg(not(feature = "tune"))]
#[inline(always)]
pub fn tune(_name: &str, default: i32) -> i32 {
    default
}
