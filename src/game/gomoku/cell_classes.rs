//! The evaluation's weight of an empty cell by the four line patterns a
//! stone there would make, taken as a multiset (which line makes which
//! pattern does not matter): 715 classes. The values are still those of
//! the earlier model, a fitted weight per line pattern plus a bonus for
//! the shape two lines make together; `scripts/gomoku_fit.py fit --write`
//! fits each class on its own (see eval.rs), holding it near its present
//! value the more firmly the rarer the class.

use super::patterns::{ALL, Pattern};

/// The patterns' count: classes are multisets of four of them.
const PATTERNS: usize = ALL.len();

/// Weight of each class, in the order of the sorted pattern tuples
/// (a <= b <= c <= d, lexicographic), as `class_index` numbers them.
#[rustfmt::skip]
const CLASS_WEIGHT: [i16; 715] = [
    0, 2, 0, 0, 8, 46, 74, 552, 300, 0, 4, 2,
    2, 10, 48, 76, 554, 302, 2, 0, 0, 8, 46, 74,
    552, 300, 0, 18, 57, 128, 311, 552, 300, 0, 65, 136,
    319, 560, 308, 8, -80, 615, 598, 346, 46, 221, 626, 374,
    74, 1031, 779, 552, 600, 300, 0, 6, 4, 4, 12, 50,
    78, 556, 304, 4, 2, 2, 10, 48, 76, 554, 302, 2,
    20, 59, 130, 313, 554, 302, 2, 67, 138, 321, 562, 310,
    10, -78, 617, 600, 348, 48, 223, 628, 376, 76, 1033, 781,
    554, 602, 302, 2, 0, 0, 8, 46, 74, 552, 300, 0,
    18, 57, 128, 311, 552, 300, 0, 65, 136, 319, 560, 308,
    8, -80, 615, 598, 346, 46, 221, 626, 374, 74, 1031, 779,
    552, 600, 300, 0, 18, 57, 128, 311, 552, 300, 18, 65,
    136, 319, 560, 308, 57, -80, 615, 598, 346, 128, 221, 626,
    374, 311, 1031, 779, 552, 600, 300, 0, 73, 144, 327, 568,
    316, 65, -72, 623, 606, 354, 136, 229, 634, 382, 319, 1039,
    787, 560, 608, 308, 8, -34, 661, 644, 392, -80, 267, 672,
    420, 615, 1077, 825, 598, 646, 346, 46, 295, 700, 448, 221,
    1105, 853, 626, 674, 374, 74, 1510, 1258, 1031, 1079, 779, 552,
    900, 600, 300, 0, 8, 6, 6, 14, 52, 80, 558, 306,
    6, 4, 4, 12, 50, 78, 556, 304, 4, 22, 61, 132,
    315, 556, 304, 4, 69, 140, 323, 564, 312, 12, -76, 619,
    602, 350, 50, 225, 630, 378, 78, 1035, 783, 556, 604, 304,
    4, 2, 2, 10, 48, 76, 554, 302, 2, 20, 59, 130,
    313, 554, 302, 2, 67, 138, 321, 562, 310, 10, -78, 617,
    600, 348, 48, 223, 628, 376, 76, 1033, 781, 554, 602, 302,
    2, 20, 59, 130, 313, 554, 302, 20, 67, 138, 321, 562,
    310, 59, -78, 617, 600, 348, 130, 223, 628, 376, 313, 1033,
    781, 554, 602, 302, 2, 75, 146, 329, 570, 318, 67, -70,
    625, 608, 356, 138, 231, 636, 384, 321, 1041, 789, 562, 610,
    310, 10, -32, 663, 646, 394, -78, 269, 674, 422, 617, 1079,
    827, 600, 648, 348, 48, 297, 702, 450, 223, 1107, 855, 628,
    676, 376, 76, 1512, 1260, 1033, 1081, 781, 554, 902, 602, 302,
    2, 0, 0, 8, 46, 74, 552, 300, 0, 18, 57, 128,
    311, 552, 300, 0, 65, 136, 319, 560, 308, 8, -80, 615,
    598, 346, 46, 221, 626, 374, 74, 1031, 779, 552, 600, 300,
    0, 18, 57, 128, 311, 552, 300, 18, 65, 136, 319, 560,
    308, 57, -80, 615, 598, 346, 128, 221, 626, 374, 311, 1031,
    779, 552, 600, 300, 0, 73, 144, 327, 568, 316, 65, -72,
    623, 606, 354, 136, 229, 634, 382, 319, 1039, 787, 560, 608,
    308, 8, -34, 661, 644, 392, -80, 267, 672, 420, 615, 1077,
    825, 598, 646, 346, 46, 295, 700, 448, 221, 1105, 853, 626,
    674, 374, 74, 1510, 1258, 1031, 1079, 779, 552, 900, 600, 300,
    0, 18, 57, 128, 311, 552, 300, 18, 65, 136, 319, 560,
    308, 57, -80, 615, 598, 346, 128, 221, 626, 374, 311, 1031,
    779, 552, 600, 300, 18, 73, 144, 327, 568, 316, 65, -72,
    623, 606, 354, 136, 229, 634, 382, 319, 1039, 787, 560, 608,
    308, 57, -34, 661, 644, 392, -80, 267, 672, 420, 615, 1077,
    825, 598, 646, 346, 128, 295, 700, 448, 221, 1105, 853, 626,
    674, 374, 311, 1510, 1258, 1031, 1079, 779, 552, 900, 600, 300,
    0, 81, 152, 335, 576, 324, 73, -64, 631, 614, 362, 144,
    237, 642, 390, 327, 1047, 795, 568, 616, 316, 65, -26, 669,
    652, 400, -72, 275, 680, 428, 623, 1085, 833, 606, 654, 354,
    136, 303, 708, 456, 229, 1113, 861, 634, 682, 382, 319, 1518,
    1266, 1039, 1087, 787, 560, 908, 608, 308, 8, 12, 707, 690,
    438, -34, 313, 718, 466, 661, 1123, 871, 644, 692, 392, -80,
    341, 746, 494, 267, 1151, 899, 672, 720, 420, 615, 1556, 1304,
    1077, 1125, 825, 598, 946, 646, 346, 46, 369, 774, 522, 295,
    1179, 927, 700, 748, 448, 221, 1584, 1332, 1105, 1153, 853, 626,
    974, 674, 374, 74, 1989, 1737, 1510, 1558, 1258, 1031, 1379, 1079,
    779, 552, 1200, 900, 600, 300, 0,
];

/// Multisets of `k` drawn from `n` values.
const fn multisets(n: usize, k: usize) -> usize {
    // C(n + k - 1, k), small enough to compute directly.
    let mut num = 1;
    let mut den = 1;
    let mut i = 0;
    while i < k {
        num *= n + k - 1 - i;
        den *= i + 1;
        i += 1;
    }
    num / den
}

/// The rank of the tuple, sorted, among all sorted tuples of four.
fn class_index(mut patterns: [usize; 4]) -> usize {
    patterns.sort_unstable();
    let mut index = 0;
    let mut low = 0;
    for (slot, &value) in patterns.iter().enumerate() {
        // Tuples agreeing so far but smaller here come first.
        for smaller in low..value {
            index += multisets(PATTERNS - smaller, 3 - slot);
        }
        low = value;
    }
    index
}

/// The fitted weight of a cell whose four lines make `patterns`.
pub fn class_weight(patterns: [Pattern; 4]) -> i32 {
    i32::from(CLASS_WEIGHT[class_index(patterns.map(|p| p as usize))])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_are_numbered_in_order_without_gaps() {
        let mut expected = 0;
        for a in 0..PATTERNS {
            for b in a..PATTERNS {
                for c in b..PATTERNS {
                    for d in c..PATTERNS {
                        assert_eq!(class_index([a, b, c, d]), expected);
                        // Direction does not matter.
                        assert_eq!(class_index([d, b, a, c]), expected);
                        expected += 1;
                    }
                }
            }
        }
        assert_eq!(expected, CLASS_WEIGHT.len());
    }
}
