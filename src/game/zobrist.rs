//! Zobrist keys from a fixed-seed ChaCha generator: ChaCha's output is
//! specified, so keys (and therefore `bench`) are identical on every machine.

use rand::SeedableRng;

/// `count` pseudo-random keys derived from `seed` (use a distinct seed per
/// game so that tables never alias).
pub fn keys(seed: u64, count: usize) -> Vec<u64> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..count).map(|_| rand::Rng::next_u64(&mut rng)).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_fixed_across_runs() {
        let a = super::keys(1, 4);
        assert_eq!(a, super::keys(1, 4));
        assert_ne!(a, super::keys(2, 4));
        // ChaCha8 from seed 7 is specified; pin the first key so that a
        // change of generator (and with it every bench count) is noticed.
        assert_eq!(super::keys(7, 1)[0], 2910824217569608635);
    }
}
