//! The evaluation's weight of an empty cell by the four line patterns a
//! stone there would make, taken as a multiset (which line makes which
//! pattern does not matter): 715 classes. The values were fitted by
//! `scripts/gomoku_fit.py fit --keep-flags --write` (see eval.rs) for the
//! evaluation averaged with the position before the last move: 23 504
//! positions (from 100 ms and 1 s games against PentaZen and self-play;
//! both they and the positions before them free of a five to make)
//! scored by Rapfi's classical engine at 100 ms, the threat bonuses held.
//! Each fit starts from the weights before it (first those of an earlier
//! model: a weight per line pattern plus a bonus for the shape two lines
//! make together) and holds them the more firmly the rarer the class: the
//! classes the positions never show keep their values.

use super::patterns::{ALL, Pattern};

/// The patterns' count: classes are multisets of four of them.
const PATTERNS: usize = ALL.len();

/// Weight of each class, in the order of the sorted pattern tuples
/// (a <= b <= c <= d, lexicographic), as `class_index` numbers them.
#[rustfmt::skip]
const CLASS_WEIGHT: [i16; 715] = [
    0, -20, -14, -2, -11, 26, 30, 446, 300, 0, -12, -27,
    1, 3, 35, 120, 544, 302, 2, -6, -20, 3, 76, 93,
    621, 300, 0, 10, 45, 67, 225, 633, 300, 0, 37, 105,
    215, 622, 308, 8, 2, 571, 571, 346, 46, 225, 625, 374,
    74, 1031, 779, 552, 600, 300, 0, 1, -13, -4, 18, 57,
    176, 566, 304, 4, -15, 8, 13, 124, 194, 655, 302, 2,
    32, 56, 141, 281, 683, 302, 2, 57, 126, 297, 618, 310,
    10, -82, 694, 579, 348, 48, 237, 628, 376, 76, 1033, 781,
    554, 602, 302, 2, 21, 10, 36, 61, 186, 628, 300, 0,
    28, 81, 128, 270, 726, 300, 0, 63, 153, 294, 598, 308,
    8, 20, 627, 606, 346, 46, 212, 633, 374, 74, 1031, 779,
    552, 600, 300, 0, 141, 113, 244, 430, 630, 300, 18, 170,
    277, 481, 592, 308, 57, -107, 662, 604, 346, 128, 223, 627,
    374, 311, 1031, 779, 552, 600, 300, 0, 104, 207, 329, 575,
    316, 65, -38, 618, 614, 354, 136, 227, 630, 382, 319, 1039,
    787, 560, 608, 308, 8, -42, 669, 648, 392, -80, 268, 672,
    420, 615, 1076, 825, 598, 646, 346, 46, 295, 698, 448, 221,
    1105, 853, 626, 674, 374, 74, 1510, 1258, 1031, 1079, 779, 552,
    900, 600, 300, 0, 1, 3, 13, 8, 113, 128, 439, 306,
    6, 0, 14, 31, 89, 231, 671, 304, 4, 12, 67, 157,
    306, 715, 304, 4, 60, 185, 381, 601, 312, 12, -3, 656,
    612, 350, 50, 246, 631, 378, 78, 1035, 783, 556, 604, 304,
    4, -3, 12, 68, 90, 258, 599, 302, 2, -6, 86, 143,
    298, 659, 302, 2, 107, 143, 281, 591, 310, 10, -127, 632,
    612, 348, 48, 226, 628, 376, 76, 1033, 781, 554, 602, 302,
    2, -14, 56, -1, 355, 576, 302, 20, 156, 300, 367, 585,
    310, 59, -114, 645, 601, 348, 130, 221, 628, 376, 313, 1033,
    781, 554, 602, 302, 2, 51, 235, 326, 582, 318, 67, -84,
    630, 609, 356, 138, 230, 636, 384, 321, 1041, 789, 562, 610,
    310, 10, -29, 662, 646, 394, -78, 268, 674, 422, 617, 1079,
    827, 600, 648, 348, 48, 297, 702, 450, 223, 1107, 855, 628,
    676, 376, 76, 1512, 1260, 1033, 1081, 781, 554, 902, 602, 302,
    2, 52, 3, 102, 71, 205, 559, 300, 0, 114, 91, 206,
    353, 600, 300, 0, 79, 138, 354, 578, 308, 8, -37, 644,
    604, 346, 46, 223, 626, 374, 74, 1031, 779, 552, 600, 300,
    0, 81, 104, 176, 391, 582, 300, 18, 98, 175, 432, 591,
    308, 57, -98, 630, 585, 346, 128, 221, 626, 374, 311, 1031,
    779, 552, 600, 300, 0, 176, 181, 385, 574, 316, 65, -54,
    632, 609, 354, 136, 228, 634, 382, 319, 1039, 787, 560, 608,
    308, 8, -43, 661, 644, 392, -80, 265, 672, 420, 615, 1077,
    825, 598, 646, 346, 46, 295, 700, 448, 221, 1105, 853, 626,
    674, 374, 74, 1510, 1258, 1031, 1079, 779, 552, 900, 600, 300,
    0, -56, 61, 116, 308, 548, 300, 18, 26, 80, 410, 575,
    308, 57, -75, 621, 601, 346, 128, 221, 626, 374, 311, 1031,
    779, 552, 600, 300, 18, 96, 121, 332, 570, 316, 65, -57,
    626, 609, 354, 136, 229, 634, 382, 319, 1039, 787, 560, 608,
    308, 57, -28, 661, 644, 392, -80, 267, 672, 420, 615, 1077,
    825, 598, 646, 346, 128, 295, 700, 448, 221, 1105, 853, 626,
    674, 374, 311, 1510, 1258, 1031, 1079, 779, 552, 900, 600, 300,
    0, 80, 165, 335, 578, 324, 73, -108, 631, 613, 362, 144,
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
