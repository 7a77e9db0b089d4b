//! The evaluation's weight of an empty cell by the four line patterns a
//! stone there would make, taken as a multiset (which line makes which
//! pattern does not matter): 715 classes. The values were fitted by
//! `scripts/gomoku_fit.py fit --keep-flags --write` (see eval.rs) for the
//! evaluation averaged with the position before the last move: 12 055
//! positions (from 100 ms games against PentaZen and self-play; both they
//! and the positions before them free of a five to make) scored by Rapfi's
//! classical engine at 100 ms. The fit started from the weights fitted
//! before for the plain evaluation on 26 135 such positions, themselves
//! from an earlier model (a weight per line pattern plus a bonus for the
//! shape two lines make together), and held them the more firmly the rarer
//! the class: the classes those positions never show keep their values.

use super::patterns::{ALL, Pattern};

/// The patterns' count: classes are multisets of four of them.
const PATTERNS: usize = ALL.len();

/// Weight of each class, in the order of the sorted pattern tuples
/// (a <= b <= c <= d, lexicographic), as `class_index` numbers them.
#[rustfmt::skip]
const CLASS_WEIGHT: [i16; 715] = [
    0, -16, -19, -11, -7, 16, 26, 459, 300, 0, -10, -21,
    -2, -9, 31, 107, 555, 302, 2, -22, -29, 3, 58, 70,
    603, 300, 0, -12, 62, 62, 238, 614, 300, 0, 22, 130,
    245, 606, 308, 8, -29, 587, 577, 346, 46, 213, 626, 374,
    74, 1031, 779, 552, 600, 300, 0, 2, -12, -7, 22, 56,
    191, 564, 304, 4, -23, 15, 5, 119, 169, 625, 302, 2,
    33, 70, 166, 359, 640, 302, 2, 71, 149, 273, 600, 310,
    10, -80, 674, 578, 348, 48, 232, 628, 376, 76, 1033, 781,
    554, 602, 302, 2, 23, 24, 45, 46, 163, 621, 300, 0,
    26, 93, 86, 265, 675, 300, 0, 54, 232, 299, 601, 308,
    8, -2, 622, 606, 346, 46, 212, 631, 374, 74, 1031, 779,
    552, 600, 300, 0, 157, 153, 230, 444, 608, 300, 18, 162,
    234, 463, 583, 308, 57, -92, 662, 604, 346, 128, 222, 627,
    374, 311, 1031, 779, 552, 600, 300, 0, 87, 214, 330, 574,
    316, 65, -35, 617, 612, 354, 136, 226, 630, 382, 319, 1039,
    787, 560, 608, 308, 8, -36, 669, 648, 392, -80, 268, 672,
    420, 615, 1076, 825, 598, 646, 346, 46, 295, 698, 448, 221,
    1105, 853, 626, 674, 374, 74, 1510, 1258, 1031, 1079, 779, 552,
    900, 600, 300, 0, 2, 2, 10, -3, 109, 120, 470, 306,
    6, 13, 20, 45, 76, 264, 666, 304, 4, 3, 65, 127,
    318, 688, 304, 4, 60, 179, 324, 594, 312, 12, -18, 641,
    608, 350, 50, 240, 631, 378, 78, 1035, 783, 556, 604, 304,
    4, 6, -6, 34, 46, 218, 589, 302, 2, -39, 92, 100,
    326, 631, 302, 2, 66, 122, 321, 585, 310, 10, -117, 633,
    608, 348, 48, 226, 628, 376, 76, 1033, 781, 554, 602, 302,
    2, -37, 43, 6, 368, 581, 302, 20, 123, 218, 387, 577,
    310, 59, -109, 640, 601, 348, 130, 221, 628, 376, 313, 1033,
    781, 554, 602, 302, 2, 57, 212, 322, 579, 318, 67, -85,
    628, 608, 356, 138, 230, 636, 384, 321, 1041, 789, 562, 610,
    310, 10, -29, 662, 646, 394, -78, 268, 674, 422, 617, 1079,
    827, 600, 648, 348, 48, 297, 702, 450, 223, 1107, 855, 628,
    676, 376, 76, 1512, 1260, 1033, 1081, 781, 554, 902, 602, 302,
    2, 36, 12, 107, 20, 184, 561, 300, 0, 123, 68, 211,
    341, 586, 300, 0, 82, 119, 353, 573, 308, 8, -52, 638,
    603, 346, 46, 222, 626, 374, 74, 1031, 779, 552, 600, 300,
    0, 82, 107, 154, 366, 571, 300, 18, 80, 200, 419, 584,
    308, 57, -90, 628, 585, 346, 128, 219, 626, 374, 311, 1031,
    779, 552, 600, 300, 0, 135, 165, 366, 572, 316, 65, -59,
    629, 608, 354, 136, 228, 634, 382, 319, 1039, 787, 560, 608,
    308, 8, -37, 661, 644, 392, -80, 265, 672, 420, 615, 1077,
    825, 598, 646, 346, 46, 295, 700, 448, 221, 1105, 853, 626,
    674, 374, 74, 1510, 1258, 1031, 1079, 779, 552, 900, 600, 300,
    0, -68, 51, 91, 304, 552, 300, 18, 17, 102, 384, 572,
    308, 57, -80, 620, 601, 346, 128, 221, 626, 374, 311, 1031,
    779, 552, 600, 300, 18, 87, 135, 335, 569, 316, 65, -63,
    623, 608, 354, 136, 229, 634, 382, 319, 1039, 787, 560, 608,
    308, 57, -29, 661, 644, 392, -80, 267, 672, 420, 615, 1077,
    825, 598, 646, 346, 128, 295, 700, 448, 221, 1105, 853, 626,
    674, 374, 311, 1510, 1258, 1031, 1079, 779, 552, 900, 600, 300,
    0, 81, 166, 336, 578, 324, 73, -91, 631, 614, 362, 144,
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
