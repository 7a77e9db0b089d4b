//! Gomoku on boards from 5x5 to 32x32 (rectangles too) under the Gomocup
//! rule variants: freestyle, standard (exact five), renju and caro (with
//! or without overlines).
//!
//! The board is a flat array with a wall border five cells wide, so every
//! line scan stops at a wall without bounds checks. Each cell keeps, per
//! direction, the code of its eight neighbours; a stone updates the codes
//! of the 32 cells on its lines, and the pattern tables turn codes into
//! threats and evaluation weights incrementally.

mod cell_classes;
mod defence;
mod eval;
pub mod openings;
mod order_values;
mod patterns;
mod rules;
mod threat_values;
pub mod threats;
pub mod vct;

use std::sync::OnceLock;

use self::patterns::{CellInfo, Pattern, PatternTable, THREAT_SLOTS, THREATS, Threat, slot};
pub use self::rules::Rule;
use self::rules::{BLACK, EMPTY, Lines, WALL, WHITE};
use self::threats::VcfCache;
use self::vct::{Vct, VctCache};
use super::{
    Boards, Description, Game, GameError, Outcome, Player, Settings, SolveNotation, ThreatVerdict,
};

/// Gomoku as the registry and the tools see it.
pub const DESCRIPTION: Description = Description {
    name: "gomoku",
    title: "Gomoku, five in a row, boards 5 to 32",
    move_examples: &["h8", "j10"],
    boards: Boards::Variable {
        min: MIN_SIZE,
        max: MAX_SIZE,
        default: (DEFAULT_SIZE, DEFAULT_SIZE),
    },
    // Rule::ALL's names, the default first.
    rules: &["freestyle", "standard", "renju", "caro", "caro-overline"],
    bench: &[
        ("", 6),
        ("h8 i9 h9", 6),
        ("h8 i9 h9 h10 g8 i8 i10 g10", 6),
        ("h8 h9 i9 g7 j10 k11 g9 i7", 6),
        ("h8 i8 g9 i9 i10 j9 h9 h10 g7 f6 g8", 6),
    ],
    solve: SolveNotation::Plies,
    draws: true,
    gomocup: true,
};

/// The smallest board side.
pub const MIN_SIZE: usize = 5;
/// The largest board side.
pub const MAX_SIZE: usize = 32;
/// The side of the default (15x15) board.
pub const DEFAULT_SIZE: usize = 15;
const PAD: usize = 5;
const MAX_STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Cells of the padded board array at the largest size.
pub const MAX_CELLS: usize = MAX_STRIDE * MAX_STRIDE;
/// Length of the per-cell arrays: a power of two at least `MAX_CELLS`, so
/// that an index masked with `CELLS - 1` needs no bounds check in the
/// incremental update (cells beyond the board are walls and never change).
const CELLS: usize = MAX_CELLS.next_power_of_two();
const MASK: usize = CELLS - 1;
/// A set of cells, a bit per cell index.
type CellSet = [u64; CELLS / 64];

/// A cell's patterns and infos before a move changed them.
#[derive(Clone, Copy)]
struct Change {
    cell: u16,
    patterns: u32,
    info: [CellInfo; 2],
}

/// What unmaking a move restores besides its cells: where its changes
/// start in the undo log, and the totals before it.
#[derive(Clone, Copy)]
struct Frame {
    start: u32,
    weight_total: [i32; 2],
    threat_count: [[u16; THREAT_SLOTS]; 2],
}

fn zobrist() -> &'static [u64] {
    static KEYS: OnceLock<Vec<u64>> = OnceLock::new();
    KEYS.get_or_init(|| super::zobrist::keys(0x60_60, 2 * MAX_CELLS + 1))
}
const SIDE_KEY: usize = 2 * MAX_CELLS;

fn color_of(p: Player) -> u8 {
    match p {
        Player::P1 => BLACK,
        Player::P2 => WHITE,
    }
}

/// A Gomoku position of any size and rule, with line patterns kept up to
/// date stone by stone.
#[derive(Clone)]
pub struct Gomoku {
    width: usize,
    height: usize,
    stride: usize,
    rule: Rule,
    dirs: [isize; 4],
    /// Cells of the padded board in use (the arrays are `CELLS` long).
    size: usize,
    cells: Box<[u8; CELLS]>,
    /// Per cell and direction, the neighbour code the pattern tables read.
    codes: Box<[[u16; 4]; CELLS]>,
    /// The occupied cells: search looks only at empty cells near stones
    /// (within the 5x5 square around one), found from this set.
    stones_set: Box<CellSet>,
    /// Per colour, what a stone on each empty cell would threaten.
    info: [Box<[CellInfo; CELLS]>; 2],
    /// Per empty cell, black's patterns in the four directions packed in
    /// the low half and white's in the high half (what `info` was combined
    /// from; stale on occupied cells).
    patterns: Box<[u32; CELLS]>,
    weight_total: [i32; 2],
    /// Per colour, empty cells by threat (`THREAT_SLOTS` so that a masked
    /// threat indexes it without a check).
    threat_count: [[u16; THREAT_SLOTS]; 2],
    /// Per colour and threat, the cells of that threat as a bit set (by
    /// cell index), so that threat cells are found without a board scan.
    threat_cells: Box<[[CellSet; THREAT_SLOTS]; 2]>,
    /// What the moves made (not set-up stones) changed, so that unmaking
    /// one restores its cells instead of reading the tables again.
    undo: Vec<Change>,
    /// Per made move, where its changes start in `undo` and the totals
    /// before it.
    frames: Vec<Frame>,
    stones: usize,
    side: Player,
    winner: Option<Player>,
    hash: u64,
    table: &'static PatternTable,
    /// Threat-search results for the current search (empty in a copy).
    vcf_cache: VcfCache,
    /// Continuous-threat search results, likewise.
    vct_cache: VctCache,
    /// Moves made on this board, ever: what a threat search made is the
    /// count's growth over it.
    moves_made: u64,
    /// Positions the threat searches visited since the searcher last took
    /// the count (`Game::take_threat_nodes`).
    threat_nodes: u64,
}

impl PartialEq for Gomoku {
    fn eq(&self, other: &Self) -> bool {
        self.width == other.width
            && self.height == other.height
            && self.rule == other.rule
            && self.cells == other.cells
            && self.side == other.side
            && self.hash == other.hash
            && self.codes == other.codes
            && self.stones_set == other.stones_set
            && self.info == other.info
            && self.weight_total == other.weight_total
            && self.threat_count == other.threat_count
            && self.threat_cells == other.threat_cells
            && (0..self.size)
                .filter(|&i| self.cells[i] == EMPTY)
                .all(|i| self.patterns[i] == other.patterns[i])
    }
}

impl std::fmt::Debug for Gomoku {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Gomoku({} {}x{} {})",
            self.rule,
            self.width,
            self.height,
            self.to_fen()
        )
    }
}

/// Board size and rule from variant settings, checked.
pub fn variant(settings: &Settings) -> Result<(usize, usize, Rule), GameError> {
    let (width, height) = settings.size.unwrap_or((DEFAULT_SIZE, DEFAULT_SIZE));
    if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
        return Err(GameError::Unsupported(format!(
            "gomoku boards are {MIN_SIZE} to {MAX_SIZE} wide and high, not {width}x{height}"
        )));
    }
    let rule = match &settings.rule {
        None => Rule::Freestyle,
        Some(name) => Rule::parse(name).ok_or_else(|| {
            GameError::Unsupported(format!(
                "unknown gomoku rule '{name}' ({})",
                DESCRIPTION.rules.join(", ")
            ))
        })?,
    };
    Ok((width, height, rule))
}

/// File letters: a..z, then aa..af for boards wider than 26.
pub fn file_name(col: usize) -> String {
    if col < 26 {
        ((b'a' + col as u8) as char).to_string()
    } else {
        format!("a{}", (b'a' + (col - 26) as u8) as char)
    }
}

/// Column and rank (from 1 at the bottom) of a square written like `h8`
/// or `ab12`; not checked against a board.
pub fn parse_square(text: &str) -> Option<(usize, usize)> {
    let text = text.trim().to_ascii_lowercase();
    let split = text.find(|c: char| c.is_ascii_digit())?;
    let (letters, digits) = text.split_at(split);
    let col = match letters.as_bytes() {
        [c @ b'a'..=b'z'] => (c - b'a') as usize,
        [b'a', c @ b'a'..=b'f'] => 26 + (c - b'a') as usize,
        _ => return None,
    };
    Some((col, digits.parse().ok()?))
}

/// Piskvork's `x,y` (from 0 at the top-left) of a square like `h8` on a
/// board `height` rows high.
pub fn square_to_xy(square: &str, height: usize) -> Option<(usize, usize)> {
    let (x, rank) = parse_square(square)?;
    (1..=height).contains(&rank).then(|| (x, height - rank))
}

/// The square (`h8`) of Piskvork's `x,y` on a board `height` rows high.
pub fn xy_to_square(x: usize, y: usize, height: usize) -> String {
    format!("{}{}", file_name(x), height - y)
}

impl Gomoku {
    /// An empty board of `width` x `height` under `rule`, black to move.
    pub fn empty(width: usize, height: usize, rule: Rule) -> Gomoku {
        let stride = width + 2 * PAD;
        let size = stride * (height + 2 * PAD);
        let s = stride as isize;
        let mut pos = Gomoku {
            width,
            height,
            stride,
            rule,
            dirs: [1, s, s + 1, s - 1],
            size,
            cells: Box::new([WALL; CELLS]),
            codes: Box::new([[0; 4]; CELLS]),
            stones_set: Box::new([0; CELLS / 64]),
            info: [
                Box::new([CellInfo::default(); CELLS]),
                Box::new([CellInfo::default(); CELLS]),
            ],
            patterns: Box::new([0; CELLS]),
            weight_total: [0; 2],
            // Every cell starts with no threat.
            threat_count: [[size as u16, 0, 0, 0, 0, 0, 0, 0]; 2],
            threat_cells: Box::new([[[0; CELLS / 64]; THREAT_SLOTS]; 2]),
            undo: Vec::new(),
            frames: Vec::new(),
            stones: 0,
            side: Player::P1,
            winner: None,
            hash: 0,
            table: PatternTable::for_rule(rule),
            vcf_cache: VcfCache::default(),
            vct_cache: VctCache::default(),
            moves_made: 0,
            threat_nodes: 0,
        };
        for row in 0..height {
            for col in 0..width {
                let i = pos.index(row, col);
                pos.cells[i] = EMPTY;
            }
        }
        for c in 0..2 {
            for i in 0..size {
                pos.threat_cells[c][Threat::None as usize][i / 64] |= 1 << (i % 64);
            }
        }
        for i in 0..size {
            for (d, &dir) in pos.dirs.iter().enumerate() {
                let mut code = 0u16;
                for k in (-4..=4isize).filter(|&k| k != 0) {
                    let j = i as isize + k * dir;
                    let v = if j >= 0 && (j as usize) < size {
                        pos.cells[j as usize]
                    } else {
                        WALL
                    };
                    code |= u16::from(v) << (2 * slot(k));
                }
                pos.codes[i][d] = code;
            }
        }
        for row in 0..height {
            for col in 0..width {
                let i = pos.index(row, col);
                pos.refresh::<false>(i);
            }
        }
        pos
    }

    /// Cells across.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Cells from bottom to top.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The rule played.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Cell index of `row` (from the top) and `col` (from the left).
    pub fn index(&self, row: usize, col: usize) -> usize {
        (row + PAD) * self.stride + col + PAD
    }

    /// Row from the top and column of a cell index.
    pub fn coords(&self, i: usize) -> (usize, usize) {
        (i / self.stride - PAD, i % self.stride - PAD)
    }

    fn interior(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.height).flat_map(move |row| (0..self.width).map(move |col| self.index(row, col)))
    }

    /// Notes what cell `i` holds before a change, when logging.
    #[inline(always)]
    fn log<const LOG: bool>(&mut self, i: usize, patterns: u32) {
        if LOG {
            self.undo.push(Change {
                cell: i as u16,
                patterns,
                info: [self.info[0][i], self.info[1][i]],
            });
        }
    }

    /// Recomputes what stones on `i` would threaten, keeping totals.
    fn refresh<const LOG: bool>(&mut self, i: usize) {
        let i = i & MASK;
        self.log::<LOG>(i, self.patterns[i]);
        if self.cells[i] == EMPTY {
            let codes = self.codes[i];
            let both = [0, 1, 2, 3].map(|d| self.table.get_both(codes[d]) << (4 * d));
            let packed = both.iter().fold(0, |word, &p| word | p);
            self.patterns[i] = packed;
            self.set_info(0, i, self.table.cell_info(0, packed as u16));
            self.set_info(1, i, self.table.cell_info(1, (packed >> 16) as u16));
        } else {
            self.set_info(0, i, CellInfo::default());
            self.set_info(1, i, CellInfo::default());
        }
    }

    #[inline(always)]
    fn set_info(&mut self, c: usize, i: usize, new: CellInfo) {
        let i = i & MASK;
        let old = self.info[c][i];
        self.weight_total[c] += i32::from(new.weight) - i32::from(old.weight);
        if old.threat != new.threat {
            let (old_t, new_t) = (
                usize::from(old.threat) & (THREAT_SLOTS - 1),
                usize::from(new.threat) & (THREAT_SLOTS - 1),
            );
            let counts = &mut self.threat_count[c];
            counts[old_t] -= 1;
            counts[new_t] += 1;
            let sets = &mut self.threat_cells[c];
            sets[old_t][i / 64] &= !(1 << (i % 64));
            sets[new_t][i / 64] |= 1 << (i % 64);
        }
        self.info[c][i] = new;
    }

    /// The stone `flip` put on or taken off cell `i` as seen from the
    /// cell `K` steps along direction `D`: its code changes, and if it is
    /// empty its patterns in that direction (the only line that stone
    /// changes) are read again for both colours.
    #[inline(always)]
    fn touch<const LOG: bool, const D: usize, const K: isize>(&mut self, i: usize, flip: u16) {
        let j = (i as isize + K * self.dirs[D]) as usize & MASK;
        // Cell j sees cell i at offset -K.
        let code = self.codes[j][D] ^ (flip << (2 * slot(-K)));
        self.codes[j][D] = code;
        // Occupied cells keep their empty info and are re-read in full
        // when cleared.
        if self.cells[j] != EMPTY {
            return;
        }
        let old = self.patterns[j];
        let shift = 4 * D;
        let new = (old & !(0x000f_000f << shift)) | (self.table.get_both(code) << shift);
        if new != old {
            self.log::<LOG>(j, old);
            self.patterns[j] = new;
            let changed = old ^ new;
            if changed & 0xffff != 0 {
                self.set_info(0, j, self.table.cell_info(0, new as u16));
            }
            if changed >> 16 != 0 {
                self.set_info(1, j, self.table.cell_info(1, (new >> 16) as u16));
            }
        }
    }

    /// `touch` for the eight neighbours of `i` along direction `D`.
    #[inline(always)]
    fn touch_line<const LOG: bool, const D: usize>(&mut self, i: usize, flip: u16) {
        self.touch::<LOG, D, -4>(i, flip);
        self.touch::<LOG, D, -3>(i, flip);
        self.touch::<LOG, D, -2>(i, flip);
        self.touch::<LOG, D, -1>(i, flip);
        self.touch::<LOG, D, 1>(i, flip);
        self.touch::<LOG, D, 2>(i, flip);
        self.touch::<LOG, D, 3>(i, flip);
        self.touch::<LOG, D, 4>(i, flip);
    }

    /// Flips the bits of stone `flip` on cell `i` in the codes of its
    /// eight neighbours along direction `D`, and nothing else.
    #[inline(always)]
    fn flip_line<const D: usize>(&mut self, i: usize, flip: u16) {
        let dir = self.dirs[D];
        for (k, shift) in [
            (-4, 7),
            (-3, 6),
            (-2, 5),
            (-1, 4),
            (1, 3),
            (2, 2),
            (3, 1),
            (4, 0),
        ] {
            // Cell j sees cell i at offset -k, in slot `shift`.
            let j = (i as isize + k * dir) as usize & MASK;
            self.codes[j][D] ^= flip << (2 * shift);
        }
    }

    /// Notes cell `i` as occupied or not in `stones_set`.
    #[inline(always)]
    fn mark_stone(&mut self, i: usize, occupied: bool) {
        let (w, bit) = ((i & MASK) / 64, 1u64 << (i % 64));
        if occupied {
            self.stones_set[w] |= bit;
        } else {
            self.stones_set[w] &= !bit;
        }
    }

    /// Every empty cell's line patterns, black's and white's four
    /// directions packed four bits each (a `Pattern` per nibble, direction
    /// d in bits 4d..4d+4), as (row, column, black, white): what the
    /// evaluation weighs, for fitting its weights outside the engine.
    pub fn cell_patterns(&self) -> Vec<(usize, usize, u16, u16)> {
        self.interior()
            .filter(|&i| self.cells[i] == EMPTY)
            .map(|i| {
                let (row, col) = self.coords(i);
                let packed = self.patterns[i];
                (row, col, packed as u16, (packed >> 16) as u16)
            })
            .collect()
    }

    /// Whether a stone lies within the 5x5 square around cell `i`.
    #[cfg(test)]
    fn near(&self, i: usize) -> bool {
        let s = self.stride as isize;
        (-2..=2isize).any(|dr| {
            (-2..=2isize).any(|dc| {
                let j = (i as isize + dr * s + dc) as usize & MASK;
                self.stones_set[j / 64] & (1 << (j % 64)) != 0
            })
        })
    }

    /// The cells within the 5x5 square around some stone (empty or not,
    /// walls included), as a set: the stones spread two columns, then
    /// two rows, either way.
    fn near_set(&self) -> CellSet {
        // One word beyond the board, for the spread's carries.
        let words = (self.size.div_ceil(64) + 1).min(CELLS / 64);
        let spread = |src: &CellSet, step: usize| -> CellSet {
            let mut out = *src;
            for k in [step, 2 * step] {
                let (q, r) = (k / 64, (k % 64) as u32);
                for (w, word) in out.iter_mut().enumerate().take(words) {
                    // Bit b of the source to b + k and b - k.
                    let up = |v: usize| -> u64 {
                        let hi = src.get(v.wrapping_sub(q)).copied().unwrap_or(0);
                        let lo = src.get(v.wrapping_sub(q + 1)).copied().unwrap_or(0);
                        if r == 0 { hi } else { hi << r | lo >> (64 - r) }
                    };
                    let down = |v: usize| -> u64 {
                        let lo = src.get(v + q).copied().unwrap_or(0);
                        let hi = src.get(v + q + 1).copied().unwrap_or(0);
                        if r == 0 { lo } else { lo >> r | hi << (64 - r) }
                    };
                    *word |= up(w) | down(w);
                }
            }
            out
        };
        spread(&spread(&self.stones_set, 1), self.stride)
    }

    /// Puts `color` on (or, with EMPTY, clears) cell `i` and updates every
    /// cell whose lines see it; with `LOG`, notes what changed in `undo`.
    fn set_cell<const LOG: bool>(&mut self, i: usize, color: u8) {
        let i = i & MASK;
        // The stone put or taken away: its bits flip in every code.
        let stone = if color == EMPTY { self.cells[i] } else { color };
        self.cells[i] = color;
        self.mark_stone(i, color != EMPTY);
        self.refresh::<LOG>(i);
        let flip = u16::from(stone);
        self.touch_line::<LOG, 0>(i, flip);
        self.touch_line::<LOG, 1>(i, flip);
        self.touch_line::<LOG, 2>(i, flip);
        self.touch_line::<LOG, 3>(i, flip);
    }

    /// Takes the stone off cell `i`: from the undo log of the move that
    /// put it there if there is one, else by reading the tables again.
    fn clear_cell(&mut self, i: usize) {
        let Some(frame) = self.frames.pop() else {
            self.set_cell::<false>(i, EMPTY);
            return;
        };
        let i = i & MASK;
        let flip = u16::from(self.cells[i]);
        self.cells[i] = EMPTY;
        self.mark_stone(i, false);
        self.flip_line::<0>(i, flip);
        self.flip_line::<1>(i, flip);
        self.flip_line::<2>(i, flip);
        self.flip_line::<3>(i, flip);
        // The totals come back whole; of each cell, its infos and the
        // threat sets it is in.
        while self.undo.len() > frame.start as usize {
            let Some(change) = self.undo.pop() else {
                break;
            };
            let j = usize::from(change.cell) & MASK;
            self.patterns[j] = change.patterns;
            for c in 0..2 {
                let (old, new) = (self.info[c][j].threat, change.info[c].threat);
                if old != new {
                    let sets = &mut self.threat_cells[c];
                    sets[usize::from(old) & (THREAT_SLOTS - 1)][j / 64] &= !(1 << (j % 64));
                    sets[usize::from(new) & (THREAT_SLOTS - 1)][j / 64] |= 1 << (j % 64);
                }
                self.info[c][j] = change.info[c];
            }
        }
        self.weight_total = frame.weight_total;
        self.threat_count = frame.threat_count;
    }

    /// Places a stone outside of play (set-up): no turn change.
    pub fn put(&mut self, i: usize, p: Player) {
        let color = color_of(p);
        // Moves made before a set-up are unmade by reading the tables.
        self.undo.clear();
        self.frames.clear();
        self.set_cell::<false>(i, color);
        self.hash ^= zobrist()[(color as usize - 1) * MAX_CELLS + i];
        self.stones += 1;
        if self.lines_ref_wins(i, color) {
            self.winner = Some(p);
        }
    }

    fn lines_ref_wins(&self, i: usize, color: u8) -> bool {
        rules::wins_at(&self.cells[..], self.dirs, i, color, self.rule)
    }

    /// Notes where the next move's changes start and the totals before
    /// it, for unmaking it (and for the evaluation's previous position).
    fn push_frame(&mut self) {
        self.frames.push(Frame {
            start: self.undo.len() as u32,
            weight_total: self.weight_total,
            threat_count: self.threat_count,
        });
    }

    /// Hands the move to the other side, in the hash too.
    fn toggle_side(&mut self) {
        self.side = self.side.other();
        self.hash ^= zobrist()[SIDE_KEY];
    }

    /// Sets the side to move (for set-ups that do not alternate).
    pub fn set_side(&mut self, p: Player) {
        if p != self.side {
            self.toggle_side();
        }
    }

    /// The stone at `row` (from the top) and `col` (from the left), if any.
    pub fn stone(&self, row: usize, col: usize) -> Option<Player> {
        let cell = self.cells[self.index(row, col)];
        super::owner(cell == BLACK, cell == WHITE)
    }

    /// Renju: whether black may not play on the empty cell `i`. The
    /// pattern tables rule most cells out cheaply; the rest are checked on
    /// a scratch copy of the board.
    pub fn is_forbidden(&self, i: usize) -> bool {
        if !self.rule.has_forbidden(BLACK) || self.cells[i] != EMPTY {
            return false;
        }
        let patterns = [0, 1, 2, 3].map(|d| self.table.get(BLACK, self.codes[i][d]));
        let suspicious = patterns
            .iter()
            .any(|&p| matches!(p, Pattern::Five | Pattern::Overline | Pattern::Open4))
            || patterns
                .iter()
                .filter(|&&p| p.is_open_three() || p == Pattern::Blocked4)
                .count()
                >= 2;
        if !suspicious {
            return false;
        }
        let mut scratch = [WALL; MAX_CELLS];
        let n = self.size;
        scratch[..n].copy_from_slice(&self.cells[..n]);
        Lines {
            cells: &mut scratch[..n],
            dirs: self.dirs,
        }
        .is_forbidden(i, 0)
    }

    fn legal_for(&self, i: usize, color: u8) -> bool {
        self.cells[i] == EMPTY && !(color == BLACK && self.is_forbidden(i))
    }

    /// Whether `color` on the empty cell `i` makes a winning line (exact).
    fn wins_with(&self, i: usize, color: u8) -> bool {
        self.cells[i] == EMPTY && self.lines_ref_wins(i, color)
    }

    /// Empty cells where `color` would win at once, checked exactly.
    fn winning_cells(&self, color: u8, out: &mut Vec<u16>) {
        out.extend(
            self.cells_of(color, Threat::Five)
                .filter(|&i| self.wins_with(i, color))
                .map(|i| i as u16),
        );
    }

    /// The empty cells where `color` has `threat`, by increasing index
    /// (the order of a scan of the board).
    fn cells_of(&self, color: u8, threat: Threat) -> impl Iterator<Item = usize> + '_ {
        let c = usize::from(color - 1) & 1;
        let set = &self.threat_cells[c][threat as usize];
        let words = if self.threat_count[c][threat as usize] == 0 {
            0
        } else {
            self.size.div_ceil(64)
        };
        bits(&set[..words])
    }

    /// The empty cells where `color` has any of the threats `wanted` (a
    /// bit per threat), by increasing index.
    fn cells_among(&self, color: u8, wanted: u8) -> impl Iterator<Item = usize> + '_ {
        let c = usize::from(color - 1) & 1;
        let any = (0..THREATS).any(|t| wanted & (1 << t) != 0 && self.threat_count[c][t] > 0);
        let words = if any { self.size.div_ceil(64) } else { 0 };
        (0..words).flat_map(move |w| word_bits(w, self.threat_word(color, wanted, w)))
    }

    /// Word `w` of the set of cells where `color` has any of the threats
    /// `wanted` (a bit per threat).
    fn threat_word(&self, color: u8, wanted: u8, w: usize) -> u64 {
        let sets = &self.threat_cells[usize::from(color - 1) & 1];
        (0..THREATS)
            .filter(|&t| wanted & (1 << t) != 0)
            .fold(0, |word, t| word | sets[t][w])
    }

    fn threats(&self, color: u8, threat: Threat) -> u16 {
        self.threat_count[(color - 1) as usize][threat as usize]
    }

    /// Runs a threat search, adding the moves it made to the positions
    /// the searcher counts as nodes (as the main search's own are).
    fn counting_threat_nodes<R>(&mut self, search: impl FnOnce(&mut Self) -> R) -> R {
        let before = self.moves_made;
        let found = search(self);
        self.threat_nodes += self.moves_made - before;
        found
    }

    /// The legal cells near stones (the centre on an empty board; every
    /// legal cell when none is near), the moves of a quiet position.
    fn near_moves(&self, moves: &mut Vec<u16>) {
        let me = color_of(self.side);
        let start = moves.len();
        if self.stones == 0 {
            moves.push(self.index(self.height / 2, self.width / 2) as u16);
            return;
        }
        let near = self.near_set();
        moves.extend(
            bits(&near[..self.size.div_ceil(64)])
                .filter(|&i| self.legal_for(i, me))
                .map(|i| i as u16),
        );
        if moves.len() == start {
            self.generate_moves(moves);
        }
    }

    /// Whether a stone of `color` on `i` makes a three, blocked or open,
    /// in some direction: a new four for it to make.
    fn makes_three(&self, color: u8, i: usize) -> bool {
        self.codes[i].iter().any(|&code| {
            let p = self.table.get(color, code);
            p == Pattern::Blocked3 || p.is_open_three()
        })
    }

    /// Whether `search_moves` answers a four-three to come with the
    /// defences it sees: neither side has a five to make (that we may
    /// block), the opponent can make a four-three next and no open four
    /// (against which only a block or a four of ours helps: a three of
    /// ours comes too late).
    fn answers_four_three(&self) -> bool {
        let me = color_of(self.side);
        let them = 3 - me;
        self.outcome().is_none()
            && self.threats(them, Threat::FourThree) > 0
            && !self
                .cells_of(them, Threat::OpenFour)
                .any(|i| self.legal_for(i, them))
            && !self
                .cells_of(me, Threat::Five)
                .any(|i| self.wins_with(i, me))
            && !self
                .cells_of(them, Threat::Five)
                .any(|i| self.wins_with(i, them) && self.legal_for(i, me))
    }
}

/// The indices of the set bits of `set`, increasing.
fn bits(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter()
        .enumerate()
        .flat_map(|(w, &word)| word_bits(w, word))
}

/// The cell indices of the set bits of word `w` of a set, increasing.
fn word_bits(w: usize, word: u64) -> impl Iterator<Item = usize> {
    let mut bits = word;
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            w * 64 + b
        })
    })
}

/// Caro's VCT takes about this many times the other rules' time per unit
/// of effort, so its efforts are divided by it (at 1 s a move, undivided,
/// the root's threat search took 0.8-0.9 s of the move).
const CARO_THREAT_COST: u64 = 4;

impl Game for Gomoku {
    /// A cell index of the padded board.
    type Move = u16;
    const DESCRIPTION: &'static Description = &DESCRIPTION;
    const HISTORY_SLOTS: usize = MAX_CELLS;
    const HASH_AFTER_IS_CHEAP: bool = true;

    /// Games between strong engines mostly end long before the board
    /// fills: 27 to 92 plies (median 41) in 20 Fastgame games on 20x20
    /// against Rapfi, 30 to 205 (median 74) in 12 games at 30 s / 180 s on
    /// 15x15. So a clock is shared over 24 moves at the start, one fewer
    /// every six stones, and never fewer than 12: most of a game's time
    /// goes to the opening and the early middle game, where it is decided.
    /// (Starting from 20, one fewer every four stones, down to 8, spent
    /// half the clock on the first ten moves.) A game that lasts to the
    /// end is covered by [`Game::most_moves_left`].
    fn moves_to_go(&self) -> Option<u32> {
        Some((24 - (self.stones / 6).min(12)) as u32)
    }

    /// Every empty cell may still be played, the side to move on half of
    /// them (rounded up).
    fn most_moves_left(&self) -> Option<u32> {
        Some((self.width * self.height - self.stones).div_ceil(2) as u32)
    }

    fn start(settings: &Settings) -> Result<Self, GameError> {
        let (width, height, rule) = variant(settings)?;
        Ok(Gomoku::empty(width, height, rule))
    }

    fn from_fen(fen: &str, settings: &Settings) -> Result<Self, GameError> {
        let (width, height, rule) = variant(settings)?;
        let (board, side) = super::split_fen(fen)?;
        let grid = super::parse_grid(fen, board, width, height)?;
        let mut pos = Gomoku::empty(width, height, rule);
        let mut winners = Vec::new();
        for (row, cells) in grid.iter().enumerate() {
            for (col, cell) in cells.iter().enumerate() {
                if let Some(p) = *cell {
                    let i = pos.index(row, col);
                    pos.put(i, p);
                }
            }
        }
        for i in pos.interior().collect::<Vec<_>>() {
            let color = pos.cells[i];
            if (color == BLACK || color == WHITE) && pos.lines_ref_wins(i, color) {
                winners.push(color);
            }
        }
        winners.dedup();
        pos.winner = match winners.as_slice() {
            [] => None,
            [c] => Some(if *c == BLACK { Player::P1 } else { Player::P2 }),
            _ => return Err(GameError::bad_position(fen, "both sides have five")),
        };
        pos.set_side(side);
        Ok(pos)
    }

    fn to_fen(&self) -> String {
        let grid = super::grid_of(self.width, self.height, |row, col| self.stone(row, col));
        super::format_grid(&grid, self.side)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(p) = self.winner {
            Some(Outcome::Win(p))
        } else if self.stones == self.width * self.height {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn generate_moves(&self, moves: &mut Vec<u16>) {
        if self.outcome().is_some() {
            return;
        }
        let color = color_of(self.side);
        moves.extend(
            self.interior()
                .filter(|&i| self.legal_for(i, color))
                .map(|i| i as u16),
        );
    }

    /// Seek the must: win at once if possible, else block the opponent's
    /// five, else against a threat of an open four or a four-three our
    /// fours and the cells on the threatening lines, else the empty cells
    /// near stones.
    fn search_moves(&self, moves: &mut Vec<u16>) {
        if self.outcome().is_some() {
            return;
        }
        let me = color_of(self.side);
        let start = moves.len();
        self.winning_cells(me, moves);
        if moves.len() > start {
            moves.truncate(start + 1);
            return;
        }
        self.winning_cells(3 - me, moves);
        moves.retain(|&i| self.legal_for(i as usize, me));
        if moves.len() > start {
            return;
        }
        if self.narrow_defences(me, moves) && moves.len() > start {
            return;
        }
        moves.truncate(start);
        self.near_moves(moves);
    }

    /// Against a four-three to come, `search_moves` lists only the
    /// defences it sees (see `narrow_defences`). Others exist: a move that
    /// makes the forced block of the coming four a four of our own, or one
    /// after which that block starts our own continuous fours. Such a move
    /// makes a new four to make, so a three of ours: those are the other
    /// cells offered.
    fn narrowed_moves(&self, listed: &[u16], moves: &mut Vec<u16>) {
        if !self.answers_four_three() {
            return;
        }
        let me = color_of(self.side);
        let start = moves.len();
        self.near_moves(moves);
        let mut kept = start;
        for k in start..moves.len() {
            if !listed.contains(&moves[k]) && self.makes_three(me, moves[k] as usize) {
                moves[kept] = moves[k];
                kept += 1;
            }
        }
        moves.truncate(kept);
    }

    fn make_move(&mut self, mv: u16) {
        let i = mv as usize;
        let color = color_of(self.side);
        // The patterns see every five (and some false ones near their
        // window's edge): only a five-cell needs the exact check.
        let five = self.info[(color - 1) as usize][i & MASK].threat == Threat::Five as u8;
        self.push_frame();
        self.set_cell::<true>(i, color);
        self.moves_made += 1;
        self.stones += 1;
        if five && self.lines_ref_wins(i, color) {
            self.winner = Some(self.side);
        }
        self.hash = self.hash_after(mv);
        self.side = self.side.other();
    }

    fn hash_after(&self, mv: u16) -> u64 {
        let keys = zobrist();
        let color = color_of(self.side);
        self.hash ^ keys[(color as usize - 1) * MAX_CELLS + mv as usize] ^ keys[SIDE_KEY]
    }

    fn unmake_move(&mut self, mv: u16) {
        let i = mv as usize;
        self.side = self.side.other();
        let color = color_of(self.side);
        self.clear_cell(i);
        self.stones -= 1;
        self.winner = None;
        let keys = zobrist();
        self.hash ^= keys[(color as usize - 1) * MAX_CELLS + i] ^ keys[SIDE_KEY];
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn evaluate(&self) -> i32 {
        self.evaluation()
    }

    fn move_to_string(&self, mv: u16) -> String {
        let (row, col) = self.coords(mv as usize);
        format!("{}{}", file_name(col), self.height - row)
    }

    fn parse_move(&self, text: &str) -> Result<u16, GameError> {
        let illegal = || GameError::IllegalMove(text.to_string());
        let (col, rank) = parse_square(text).ok_or_else(illegal)?;
        if col >= self.width || rank == 0 || rank > self.height || self.outcome().is_some() {
            return Err(illegal());
        }
        let i = self.index(self.height - rank, col);
        if !self.legal_for(i, color_of(self.side)) {
            return Err(illegal());
        }
        Ok(i as u16)
    }

    fn render(&self) -> String {
        let grid = super::grid_of(self.width, self.height, |row, col| self.stone(row, col));
        let files: String = (0..self.width)
            .map(|c| file_name(c).chars().last().unwrap_or('?'))
            .collect();
        super::render_grid(&grid, &files)
    }

    /// Renju's forbidden points for black, row by row from the top.
    fn forbidden_moves(&self, moves: &mut Vec<u16>) {
        moves.extend(
            self.interior()
                .filter(|&i| self.is_forbidden(i))
                .map(|i| i as u16),
        );
    }

    /// The fitted ordering values (order_values.rs) of our stone and of
    /// taking the cell from the opponent.
    fn move_score(&self, mv: u16) -> i32 {
        let i = mv as usize;
        let me = (color_of(self.side) - 1) as usize;
        i32::from(self.info[me][i].attack) + i32::from(self.info[1 - me][i].defend)
    }

    fn history_slot(&self, mv: u16) -> usize {
        mv as usize
    }

    fn tactical_moves(&self, moves: &mut Vec<u16>) {
        if self.outcome().is_none() {
            // One winning move is enough.
            let start = moves.len();
            self.winning_cells(color_of(self.side), moves);
            moves.truncate(start + 1);
        }
    }

    /// Quiet: no three or four of our own, no block of more than a
    /// four-cell of theirs, and no threat of theirs to answer.
    fn quiet_move(&self, mv: u16) -> bool {
        let me = (color_of(self.side) - 1) as usize;
        let them = &self.threat_count[1 - me];
        let i = mv as usize;
        them[Threat::OpenFour as usize] + them[Threat::FourThree as usize] == 0
            && self.info[me][i].threat == Threat::None as u8
            && self.info[1 - me][i].threat <= Threat::Four as u8
    }

    /// A four (the opponent must answer on its five-point) or an open
    /// three (answered, or it becomes an open four): the threats a
    /// continuous-threat win is made of, followed a ply deeper so that
    /// the search sees such wins, and their defences, before its horizon.
    /// The threes matter: extending only fours scored 30.5% against
    /// Rapfi 0.43.02 (classical) where this scores 38.5%, both at 250 000
    /// nodes a move (226 games paired by opening and colour, -8.0 +- 3.7
    /// points).
    fn forcing_move(&self, mv: u16) -> bool {
        let me = (color_of(self.side) - 1) as usize;
        let threat = self.info[me][mv as usize].threat;
        threats::makes_four(threat)
            || threat == Threat::Three as u8
            || threat == Threat::DoubleThree as u8
    }

    fn unordered_reduction(&self) -> bool {
        true
    }

    /// Not while either side has a five to make (the opponent's must be
    /// blocked, ours wins): the evaluation does not see that far.
    fn futility_margin(&self, depth: i32) -> Option<i32> {
        let me = color_of(self.side);
        (self.stones >= 4
            && self.threats(me, Threat::Five) + self.threats(3 - me, Threat::Five) == 0)
            .then(|| crate::tune::tune("FUTM", 280) * depth)
    }

    fn null_move_allowed(&self) -> bool {
        // No zugzwang in gomoku; but passing into a five threat is
        // pointless.
        let them = 3 - color_of(self.side);
        self.stones >= 4
            && self.threats(them, Threat::Five) == 0
            && self.threats(them, Threat::OpenFour) == 0
    }

    /// A win by continuous fours (VCF) for the side to move.
    fn forced_win(&mut self, effort: u64) -> Option<(u16, u32)> {
        self.counting_threat_nodes(|pos| pos.vcf(effort).win())
    }

    /// The quick VCF (see `threats`).
    fn quick_win(&mut self, effort: u64) -> Option<(u16, u32)> {
        self.counting_threat_nodes(|pos| pos.vcf_quick(effort).win())
    }

    /// A win by continuous threats (VCT) for the side to move. The
    /// search's efforts are sized for the other rules; caro's threats
    /// cost more each (a five can also be stopped at its far end, so
    /// every defence tries more cells), and its effort is cut to match.
    fn threat_verdict(&mut self, effort: u64) -> ThreatVerdict<u16> {
        let effort = if self.rule.is_caro() {
            (effort / CARO_THREAT_COST).max(1)
        } else {
            effort
        };
        match self.counting_threat_nodes(|pos| pos.vct(effort)) {
            Vct::Win(mv, plies) => ThreatVerdict::Win(mv, plies),
            Vct::None => ThreatVerdict::NoWin,
            Vct::Unknown => ThreatVerdict::Unknown,
        }
    }

    fn take_threat_nodes(&mut self) -> u64 {
        std::mem::take(&mut self.threat_nodes)
    }

    /// Results are kept by position and attacker; the rule and the board
    /// decide what they mean.
    fn take_caches(&mut self, from: &mut Self) {
        if (self.rule, self.width, self.height) == (from.rule, from.width, from.height) {
            self.vcf_cache = std::mem::take(&mut from.vcf_cache);
            self.vct_cache = std::mem::take(&mut from.vct_cache);
        }
    }

    /// Our fours and the cells of the opponent's VCF after a pass.
    fn threat_defences(&mut self, effort: u64, moves: &mut Vec<u16>) -> bool {
        self.counting_threat_nodes(|pos| pos.vcf_defences(effort, moves))
    }

    fn make_null_move(&mut self) {
        // A frame that changes nothing, so that the evaluation's previous
        // position is the one passed from.
        self.push_frame();
        self.toggle_side();
    }

    fn unmake_null_move(&mut self) {
        self.frames.pop();
        self.toggle_side();
    }
}

#[cfg(test)]
mod tests;
