//! Line patterns: what a stone placed on a cell makes along one direction,
//! looked up from the eight neighbouring cells (four each side, two bits
//! each: empty, black, white, wall), so a table of 65536 entries per rule
//! and colour answers it. The table sees only four cells each side, so it
//! is an estimate near its window's edge; wins and forbidden moves are
//! checked exactly in `rules`.

use std::sync::OnceLock;

use super::cell_classes::class_weight;
use super::order_values::order_values;
use super::rules::{BLACK, EMPTY, Rule, WHITE};

/// Pattern of one line through a cell, weakest first. Twos and threes
/// are told apart by how many ways they grow (as Rapfi's classical
/// patterns are): a two that makes an open three on four cells is worth
/// more than one that makes it on two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Pattern {
    /// No five can be made along this line through the cell.
    None,
    /// One stone that can become a blocked two.
    Blocked1,
    /// One stone with room to grow on both sides.
    Open1,
    /// Two that can become a (blocked) three.
    Blocked2,
    /// Two that can become an open three on one or two cells.
    Open2,
    /// Two that can become an open three on three cells.
    Open2A,
    /// Two that can become an open three on four cells or more.
    Open2B,
    /// Three that can become a blocked four.
    Blocked3,
    /// Three that can become an open four on one cell.
    Open3,
    /// Three that can become an open four on two cells or more.
    Open3S,
    /// One move from five, in one way.
    Blocked4,
    /// One move from five in two ways: cannot be stopped by one move.
    Open4,
    Five,
    /// Six or more where only exactly five wins.
    Overline,
}

impl Pattern {
    /// Whether the line is an open three, however many ways it opens.
    pub fn is_open_three(self) -> bool {
        matches!(self, Pattern::Open3 | Pattern::Open3S)
    }
}

/// Every pattern, in order (the cell classes are multisets of them).
pub(super) const ALL: [Pattern; 14] = [
    Pattern::None,
    Pattern::Blocked1,
    Pattern::Open1,
    Pattern::Blocked2,
    Pattern::Open2,
    Pattern::Open2A,
    Pattern::Open2B,
    Pattern::Blocked3,
    Pattern::Open3,
    Pattern::Open3S,
    Pattern::Blocked4,
    Pattern::Open4,
    Pattern::Five,
    Pattern::Overline,
];

/// Neighbour slot of offset `k` (-4..=4, not 0) in a line code.
pub const fn slot(k: isize) -> u32 {
    (if k < 0 { k + 4 } else { k + 3 }) as u32
}

const OWN: u8 = 1;
const OPPONENT: u8 = 2;

/// Classifies a line seen from the player who just placed the middle
/// stone: `line[4]` is that stone; cells are EMPTY, OWN, OPPONENT, WALL.
fn five(line: &[u8; 9], rule: Rule, black: bool) -> (bool, usize) {
    let mut lo = 4;
    while lo > 0 && line[lo - 1] == OWN {
        lo -= 1;
    }
    let mut hi = 4;
    while hi < 8 && line[hi + 1] == OWN {
        hi += 1;
    }
    let length = hi - lo + 1;
    // Beyond the window nothing is known: count it as open.
    let end = |i: Option<usize>| i.map_or(EMPTY, |i| line[i]);
    let ends = [end(lo.checked_sub(1)), end((hi < 8).then_some(hi + 1))];
    let color = if black { BLACK } else { WHITE };
    let absolute = ends.map(|c| match c {
        OWN => color,
        OPPONENT => 3 - color,
        other => other,
    });
    (rule.is_win(color, length, absolute), length)
}

struct Builder {
    rule: Rule,
    black: bool,
    /// Patterns by relative code (OWN/OPPONENT instead of colours).
    relative: Vec<Pattern>,
}

fn decode(code: u32) -> [u8; 9] {
    let mut line = [EMPTY; 9];
    for k in -4..=4isize {
        if k != 0 {
            line[(k + 4) as usize] = ((code >> (2 * slot(k))) & 3) as u8;
        }
    }
    line[4] = OWN;
    line
}

impl Builder {
    fn classify(&self, code: u32) -> Pattern {
        let line = decode(code);
        let (wins, length) = five(&line, self.rule, self.black);
        if wins {
            return Pattern::Five;
        }
        if length >= 6 {
            return Pattern::Overline;
        }
        // What each empty cell of the window would make with one more
        // own stone: the line is named by the best of them, and by how
        // many cells make it.
        let mut five_points = 0;
        let mut grown = [0u8; ALL.len()];
        for k in -4..=4isize {
            let i = (k + 4) as usize;
            if k == 0 || line[i] != EMPTY {
                continue;
            }
            let mut next = line;
            next[i] = OWN;
            if five(&next, self.rule, self.black).0 {
                five_points += 1;
                continue;
            }
            let pattern = self.relative[(code | (u32::from(OWN) << (2 * slot(k)))) as usize];
            grown[pattern as usize] += 1;
        }
        let n = |p: Pattern| grown[p as usize];
        let open_threes = n(Pattern::Open3) + n(Pattern::Open3S);
        let open_twos = n(Pattern::Open2) + n(Pattern::Open2A) + n(Pattern::Open2B);
        if five_points >= 2 {
            Pattern::Open4
        } else if five_points == 1 {
            Pattern::Blocked4
        } else if n(Pattern::Open4) >= 2 {
            Pattern::Open3S
        } else if n(Pattern::Open4) == 1 {
            Pattern::Open3
        } else if n(Pattern::Blocked4) > 0 {
            Pattern::Blocked3
        } else if open_threes >= 4 {
            Pattern::Open2B
        } else if open_threes == 3 {
            Pattern::Open2A
        } else if open_threes > 0 {
            Pattern::Open2
        } else if n(Pattern::Blocked3) > 0 {
            Pattern::Blocked2
        } else if open_twos > 0 {
            Pattern::Open1
        } else if n(Pattern::Blocked2) > 0 {
            Pattern::Blocked1
        } else {
            Pattern::None
        }
    }

    fn build(rule: Rule, black: bool) -> Vec<Pattern> {
        let mut builder = Builder {
            rule,
            black,
            relative: vec![Pattern::None; 1 << 16],
        };
        // A code's patterns depend on codes with one more own stone, so
        // fill in order of decreasing own-stone count.
        let own_count = |code: u32| {
            (0..8)
                .filter(|s| (code >> (2 * s)) & 3 == u32::from(OWN))
                .count()
        };
        let mut codes: Vec<u32> = (0..1 << 16).collect();
        codes.sort_by_key(|&c| std::cmp::Reverse(own_count(c)));
        for code in codes {
            builder.relative[code as usize] = builder.classify(code);
        }
        builder.relative
    }
}

/// Pattern lookup for one rule: `get(color, code)` with the neighbour code
/// in absolute colours.
pub struct PatternTable {
    /// Both colours' patterns of a code in one byte, black's in the low
    /// four bits: one memory access per code, and a table small enough
    /// to stay in the cache beside `infos`.
    both: Box<[u8; 1 << 16]>,
    /// `combine` of every four packed patterns (see `pack`), black's
    /// table then white's (they differ where black has forbidden moves).
    infos: [Box<[CellInfo; 1 << 16]>; 2],
}

fn swap_colors(code: u32) -> u32 {
    let mut out = 0;
    for s in 0..8 {
        let cell = (code >> (2 * s)) & 3;
        let swapped = match cell as u8 {
            BLACK => u32::from(WHITE),
            WHITE => u32::from(BLACK),
            other => u32::from(other),
        };
        out |= swapped << (2 * s);
    }
    out
}

impl PatternTable {
    fn build(rule: Rule) -> PatternTable {
        // For black, own = BLACK = 1 and opponent = WHITE = 2: the
        // relative code is the absolute one. For white, swap the colours.
        let black = Builder::build(rule, true);
        let white_relative = Builder::build(rule, false);
        let white: Vec<Pattern> = (0..1u32 << 16)
            .map(|c| white_relative[swap_colors(c) as usize])
            .collect();
        let mut both = Box::new([0; 1 << 16]);
        for (code, pair) in both.iter_mut().enumerate() {
            *pair = black[code] as u8 | (white[code] as u8) << 4;
        }
        PatternTable {
            both,
            infos: [
                cell_infos(rule.has_forbidden(BLACK)),
                cell_infos(rule.has_forbidden(WHITE)),
            ],
        }
    }

    pub fn for_rule(rule: Rule) -> &'static PatternTable {
        static TABLES: [OnceLock<PatternTable>; Rule::ALL.len()] =
            [const { OnceLock::new() }; Rule::ALL.len()];
        let index = Rule::ALL.iter().position(|&r| r == rule).unwrap_or(0);
        TABLES[index].get_or_init(|| PatternTable::build(rule))
    }

    #[inline]
    pub fn get(&self, color: u8, code: u16) -> Pattern {
        let pair = self.both[code as usize];
        let nibble = if color == BLACK { pair & 15 } else { pair >> 4 };
        ALL[usize::from(nibble)]
    }

    /// Black's pattern of one code in bits 0..4 and white's in bits
    /// 16..20: the two colours' packed patterns of a direction side by
    /// side (see `pack`).
    #[inline(always)]
    pub fn get_both(&self, code: u16) -> u32 {
        let pair = u32::from(self.both[code as usize]);
        (pair & 15) | (pair >> 4) << 16
    }

    /// `combine` of four packed patterns (see `pack`) of a colour (0
    /// black, 1 white), looked up.
    #[inline(always)]
    pub fn cell_info(&self, c: usize, packed: u16) -> CellInfo {
        self.infos[c & 1][usize::from(packed)]
    }
}

/// What a move on a cell threatens, all four lines together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Threat {
    None,
    Three,
    Four,
    /// Two open threes.
    DoubleThree,
    /// A four and an open three.
    FourThree,
    /// An open four or two fours: wins unless the opponent wins first.
    OpenFour,
    Five,
}

pub const THREATS: usize = 7;
/// `THREATS` rounded up to a power of two, for tables indexed by a masked
/// threat.
pub const THREAT_SLOTS: usize = THREATS.next_power_of_two();

/// What a stone on an empty cell would do for one colour: its threat (a
/// `Threat` as u8) and its evaluation weight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellInfo {
    pub threat: u8,
    pub weight: i16,
    /// The move ordering's value of our stone here (`order_values`).
    pub attack: i16,
    /// The move ordering's value of the other colour's stone here: of
    /// taking the cell from us.
    pub defend: i16,
}

/// Four patterns in one word, four bits per direction (direction d in
/// bits 4d..4d+4): a direction changes with shifts, not a byte store.
#[cfg(test)]
pub fn pack(patterns: [Pattern; 4]) -> u16 {
    patterns
        .iter()
        .enumerate()
        .fold(0, |word, (d, &p)| word | (p as u16) << (4 * d))
}

/// `combine` of every word of four packed patterns: cells are re-rated on
/// every move, so all tuples are rated once (nibbles above the last
/// pattern rate as `None`; they never occur). With `forbidden` (renju's
/// black), a cell the patterns show to be forbidden is worth nothing.
fn cell_infos(forbidden: bool) -> Box<[CellInfo; 1 << 16]> {
    let mut infos = Box::new([CellInfo::default(); 1 << 16]);
    for (packed, info) in infos.iter_mut().enumerate() {
        let patterns =
            [0, 1, 2, 3].map(|d| *ALL.get((packed >> (4 * d)) & 15).unwrap_or(&Pattern::None));
        *info = if forbidden && looks_forbidden(patterns) {
            CellInfo::default()
        } else {
            let (threat, weight) = combine(patterns);
            let (attack, defend) = order_values(patterns);
            CellInfo {
                threat: threat as u8,
                weight: weight as i16,
                attack,
                defend,
            }
        };
    }
    infos
}

/// `combine` looked up.
#[cfg(test)]
pub fn cell_info(patterns: [Pattern; 4]) -> CellInfo {
    PatternTable::for_rule(Rule::Freestyle).cell_info(0, pack(patterns))
}

/// Whether a stone of renju's black with these four line patterns would
/// be forbidden, as far as the patterns tell: no five, and an overline,
/// two fours, or two open threes. (The exact test, which legality uses,
/// also asks whether each three can really become an open four; the
/// evaluation and the threat counts take the patterns' word.)
pub fn looks_forbidden(patterns: [Pattern; 4]) -> bool {
    let n = |p: Pattern| patterns.iter().filter(|&&q| q == p).count();
    n(Pattern::Five) == 0
        && (n(Pattern::Overline) > 0
            || n(Pattern::Blocked4) + n(Pattern::Open4) >= 2
            || patterns.iter().filter(|p| p.is_open_three()).count() >= 2)
}

/// Combined threat and evaluation weight of the four patterns of a cell.
pub fn combine(patterns: [Pattern; 4]) -> (Threat, i32) {
    let mut count = [0u8; ALL.len()];
    for p in patterns {
        count[p as usize] += 1;
    }
    let n = |p: Pattern| count[p as usize];
    let fours = n(Pattern::Blocked4) + n(Pattern::Open4);
    let open_threes = patterns.iter().filter(|p| p.is_open_three()).count();
    let threat = if n(Pattern::Five) > 0 {
        Threat::Five
    } else if n(Pattern::Open4) > 0 || fours >= 2 {
        Threat::OpenFour
    } else if fours == 1 && open_threes > 0 {
        Threat::FourThree
    } else if open_threes >= 2 {
        Threat::DoubleThree
    } else if fours == 1 {
        Threat::Four
    } else if open_threes == 1 {
        Threat::Three
    } else {
        Threat::None
    };
    // The weight is fitted per class of the four patterns (see eval.rs).
    // A five-point is settled by search, not weighed.
    (threat, class_weight(patterns))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::rules::WALL;

    /// Code of a line written like "..xx_x..." (9 chars, `_` the centre
    /// where the own stone goes; x own, o opponent, # wall, . empty).
    fn code(text: &str) -> u16 {
        let chars: Vec<char> = text.chars().collect();
        assert_eq!(chars.len(), 9);
        let mut code = 0u32;
        for k in -4..=4isize {
            if k == 0 {
                continue;
            }
            let v = match chars[(k + 4) as usize] {
                'x' => BLACK,
                'o' => WHITE,
                '#' => WALL,
                _ => EMPTY,
            };
            code |= u32::from(v) << (2 * slot(k));
        }
        code as u16
    }

    #[test]
    fn patterns_of_lines() {
        let table = PatternTable::for_rule(Rule::Freestyle);
        let black = |t: &str| table.get(BLACK, code(t));
        assert_eq!(black("..xx_xx.."), Pattern::Five);
        assert_eq!(
            black(".xxx_xx.."),
            Pattern::Five,
            "overline wins in freestyle"
        );
        assert_eq!(black("...x_xx.."), Pattern::Open4);
        assert_eq!(black("..ox_xx.."), Pattern::Blocked4);
        assert_eq!(black("..x._xx.."), Pattern::Blocked4);
        assert_eq!(black("...x_x..."), Pattern::Open3S, "opens on both ends");
        assert_eq!(black("..x._x..."), Pattern::Open3, "opens only in the gap");
        assert_eq!(black("..ox_x..."), Pattern::Blocked3);
        assert_eq!(
            black("...x_...."),
            Pattern::Open2B,
            "four cells make an open three"
        );
        assert_eq!(black("..x._...."), Pattern::Open2A, "three cells do");
        assert_eq!(black(".x.._...."), Pattern::Open2, "two cells do");
        assert_eq!(black("...._...."), Pattern::Open1);
        assert_eq!(
            black("...#_...."),
            Pattern::Blocked1,
            "walled in on one side: room for one five only"
        );
        assert_eq!(black("...#_..o."), Pattern::None, "no room for five");
        assert_eq!(black("..o._o..."), Pattern::None);
        // The same line seen by white is the colour-swapped line.
        assert_eq!(table.get(WHITE, code("..oo_oo..")), Pattern::Five);
        assert_eq!(table.get(WHITE, code("..xx_xx..")), Pattern::None);
    }

    #[test]
    fn exact_five_rules_see_overlines() {
        let standard = PatternTable::for_rule(Rule::Standard);
        assert_eq!(standard.get(BLACK, code(".xxx_xx..")), Pattern::Overline);
        assert_eq!(standard.get(BLACK, code("..xx_xx..")), Pattern::Five);
        let renju = PatternTable::for_rule(Rule::Renju);
        assert_eq!(renju.get(BLACK, code(".xxx_xx..")), Pattern::Overline);
        assert_eq!(
            renju.get(WHITE, code(".ooo_oo..")),
            Pattern::Five,
            "white may overline in renju"
        );
        let caro = PatternTable::for_rule(Rule::Caro);
        assert_eq!(
            caro.get(BLACK, code(".oxx_xxo.")),
            Pattern::None,
            "blocked at both ends"
        );
        assert_eq!(
            caro.get(BLACK, code(".#xx_xxo.")),
            Pattern::Five,
            "the edge does not block"
        );
        assert_eq!(caro.get(BLACK, code(".oxx_xx..")), Pattern::Five);
    }

    #[test]
    fn threats_combine_lines() {
        use Pattern::*;
        assert_eq!(combine([Five, None, None, None]).0, Threat::Five);
        assert_eq!(
            combine([Blocked4, Blocked4, None, None]).0,
            Threat::OpenFour
        );
        assert_eq!(combine([Blocked4, Open3, None, None]).0, Threat::FourThree);
        assert_eq!(combine([Open3, Open3, Open2, None]).0, Threat::DoubleThree);
        assert_eq!(combine([Open2, Open2, Open1, None]).0, Threat::None);
        let mixed = [Open3, Blocked4, None, Open1];
        let (threat, weight) = combine(mixed);
        let (attack, defend) = order_values(mixed);
        assert_eq!(
            cell_info(mixed),
            CellInfo {
                threat: threat as u8,
                weight: weight as i16,
                attack,
                defend,
            }
        );
    }
}
