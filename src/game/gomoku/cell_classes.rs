//! The evaluation's weight of an empty cell by the four line patterns a
//! stone there would make, taken as a multiset (which line makes which
//! pattern does not matter): 715 classes. The values were fitted by
//! `scripts/gomoku_fit.py fit --keep-flags --write` (see eval.rs) on 26 135
//! positions scored by Rapfi's classical engine at 100 ms, starting from
//! the earlier model (a weight per line pattern plus a bonus for the shape
//! two lines make together) and held near it the more firmly the rarer the
//! class: the 455 classes those positions never show keep its values.

use super::patterns::{ALL, Pattern};

/// The patterns' count: classes are multisets of four of them.
const PATTERNS: usize = ALL.len();

/// Weight of each class, in the order of the sorted pattern tuples
/// (a <= b <= c <= d, lexicographic), as `class_index` numbers them.
#[rustfmt::skip]
const CLASS_WEIGHT: [i16; 715] = [
    0, -3, -6, 0, -4, -1, 12, 455, 300, 0, 3, -8,
    -2, 9, 37, 91, 555, 302, 2, -9, 26, 15, 64, 119,
    578, 300, 0, 35, 34, 77, 218, 585, 300, 0, 86, 147,
    219, 585, 308, 8, -85, 598, 584, 346, 46, 204, 628, 374,
    74, 1031, 779, 552, 600, 300, 0, 5, -8, 6, 21, 82,
    132, 553, 304, 4, -7, 16, 23, 104, 181, 572, 302, 2,
    -2, 50, 114, 229, 547, 302, 2, 74, 196, 258, 585, 310,
    10, -90, 619, 583, 348, 48, 229, 628, 376, 76, 1033, 781,
    554, 602, 302, 2, 23, 42, 40, 123, 185, 604, 300, 0,
    62, 61, 155, 332, 609, 300, 0, 118, 181, 297, 596, 308,
    8, -40, 603, 603, 346, 46, 211, 628, 374, 74, 1031, 779,
    552, 600, 300, 0, 59, 93, 154, 384, 568, 300, 18, 110,
    185, 427, 579, 308, 57, -74, 644, 606, 346, 128, 222, 627,
    374, 311, 1031, 779, 552, 600, 300, 0, 94, 215, 343, 572,
    316, 65, -49, 615, 608, 354, 136, 227, 630, 382, 319, 1039,
    787, 560, 608, 308, 8, -29, 668, 647, 392, -80, 268, 672,
    420, 615, 1076, 825, 598, 646, 346, 46, 295, 698, 448, 221,
    1105, 853, 626, 674, 374, 74, 1510, 1258, 1031, 1079, 779, 552,
    900, 600, 300, 0, 7, 5, 22, 12, 115, 148, 503, 306,
    6, 8, 22, 23, 130, 191, 596, 304, 4, 1, 17, 146,
    268, 578, 304, 4, 37, 194, 357, 576, 312, 12, -56, 611,
    599, 350, 50, 229, 631, 378, 78, 1035, 783, 556, 604, 304,
    4, 37, 30, 59, 95, 172, 572, 302, 2, 18, 60, 61,
    293, 576, 302, 2, 42, 123, 380, 573, 310, 10, -118, 642,
    602, 348, 48, 225, 628, 376, 76, 1033, 781, 554, 602, 302,
    2, -25, 24, 75, 326, 573, 302, 20, 39, 88, 390, 569,
    310, 59, -73, 631, 601, 348, 130, 222, 628, 376, 313, 1033,
    781, 554, 602, 302, 2, 76, 139, 323, 573, 318, 67, -74,
    625, 608, 356, 138, 230, 636, 384, 321, 1041, 789, 562, 610,
    310, 10, -29, 662, 646, 394, -78, 268, 674, 422, 617, 1079,
    827, 600, 648, 348, 48, 297, 702, 450, 223, 1107, 855, 628,
    676, 376, 76, 1512, 1260, 1033, 1081, 781, 554, 902, 602, 302,
    2, -16, 22, 30, 52, 136, 567, 300, 0, 79, 121, 187,
    350, 562, 300, 0, 53, 126, 351, 567, 308, 8, -66, 631,
    603, 346, 46, 223, 626, 374, 74, 1031, 779, 552, 600, 300,
    0, 13, 75, 94, 346, 566, 300, 18, 77, 184, 379, 572,
    308, 57, -87, 623, 586, 346, 128, 219, 626, 374, 311, 1031,
    779, 552, 600, 300, 0, 77, 144, 337, 570, 316, 65, -69,
    624, 608, 354, 136, 228, 634, 382, 319, 1039, 787, 560, 608,
    308, 8, -35, 661, 644, 392, -80, 265, 672, 420, 615, 1077,
    825, 598, 646, 346, 46, 295, 700, 448, 221, 1105, 853, 626,
    674, 374, 74, 1510, 1258, 1031, 1079, 779, 552, 900, 600, 300,
    0, -51, 51, 118, 300, 554, 300, 18, 52, 130, 337, 567,
    308, 57, -86, 615, 601, 346, 128, 221, 626, 374, 311, 1031,
    779, 552, 600, 300, 18, 80, 149, 339, 568, 316, 65, -70,
    623, 606, 354, 136, 229, 634, 382, 319, 1039, 787, 560, 608,
    308, 57, -32, 661, 644, 392, -80, 267, 672, 420, 615, 1077,
    825, 598, 646, 346, 128, 295, 700, 448, 221, 1105, 853, 626,
    674, 374, 311, 1510, 1258, 1031, 1079, 779, 552, 900, 600, 300,
    0, 83, 164, 337, 578, 324, 73, -63, 631, 614, 362, 144,
    237, 641, 390, 327, 1047, 795, 568, 616, 316, 65, -28, 669,
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
