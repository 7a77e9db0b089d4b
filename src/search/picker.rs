//! The staged move picker: a node asks it for the next move to search
//! and it answers from the stage the node has reached.
//!
//! 1. **Scored**: the node's list, best ordering score first (the table
//!    move's score is above every other, so it comes first; then killers,
//!    then the game's scores with history breaking ties).
//! 2. **Held back**: after a defence against the opponent's threat, the
//!    rest of the moves come only if every defending move lost.
//! 3. **Narrowed**: the moves the game left out of a narrowed answer come
//!    only if every listed move lost.
//! 4. **Deferred**: in a parallel search, the moves the node put off
//!    because another thread was searching them, last.
//!
//! Late-move pruning is a skip rather than a stage: once the node has
//! searched enough moves and one of them holds, the quiet moves left in
//! the list go at once.
//!
//! Every move of the list (and every narrowed move taken in) is picked
//! exactly once, or skipped, or cut short by the node's cut-off; the
//! tests below check each stage for that.

use super::ordering::{Ordering, pick_next};
use super::params::SearchParams;
use super::score::MATE_BOUND;
use crate::game::Game;

/// Taken from the ordering scores of the moves the defence holds back,
/// so that they come after every defending move.
const HELD_BACK: i64 = 1 << 52;

/// The move the picker gave, and where it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picked<M> {
    /// The move.
    pub mv: M,
    /// Its place in the node's list, deferred moves after it: 0 for the
    /// first move searched, and rising from pick to pick (the places of
    /// skipped moves are not given).
    pub index: usize,
    /// From the node's list (scored, held back or narrowed), not deferred:
    /// only such moves are reduced, pruned or deferred.
    pub listed: bool,
}

/// One node's moves, in stages. Kept per ply and reused, so that a node
/// allocates nothing.
#[derive(Debug)]
pub struct MovePicker<M> {
    moves: Vec<M>,
    scores: Vec<i64>,
    deferred: Vec<M>,
    /// Scratch for the moves appended to the list.
    extra: Vec<M>,
    /// Where the held-back moves begin (`usize::MAX`: none held back).
    held: usize,
    /// The list's end: moves at and past it are deferred ones.
    listed: usize,
    /// The next place to pick from.
    next: usize,
    /// Whether the narrowed moves were taken in, or may not be.
    widened: bool,
    /// Late-move pruning: the number of moves after which quiet ones are
    /// skipped, and whether they were.
    quiet_limit: Option<usize>,
    quiet_pruned: bool,
    /// Moves not searched because a defence held or as late quiet moves.
    skipped: u64,
    tt_move: Option<M>,
    ply: usize,
}

impl<M> Default for MovePicker<M> {
    fn default() -> Self {
        MovePicker {
            moves: Vec::new(),
            scores: Vec::new(),
            deferred: Vec::new(),
            extra: Vec::new(),
            held: usize::MAX,
            listed: 0,
            next: 0,
            widened: false,
            quiet_limit: None,
            quiet_pruned: false,
            skipped: 0,
            tt_move: None,
            ply: 0,
        }
    }
}

impl<M: Copy + PartialEq> MovePicker<M> {
    /// Starts a node at `ply` whose table move is `tt_move`, with an empty
    /// list: the node fills it through [`Self::list`] or
    /// [`Self::generate`], and [`Self::hold_back_the_rest`] may follow.
    pub fn begin(&mut self, tt_move: Option<M>, ply: usize) {
        self.moves.clear();
        self.scores.clear();
        self.deferred.clear();
        self.held = usize::MAX;
        self.listed = 0;
        self.next = 0;
        self.widened = false;
        self.quiet_limit = None;
        self.quiet_pruned = false;
        self.skipped = 0;
        self.tt_move = tt_move;
        self.ply = ply;
    }

    /// The list, for a node that makes it itself (the root).
    pub fn list(&mut self) -> &mut Vec<M> {
        &mut self.moves
    }

    /// The list is the game's search moves.
    pub fn generate<G: Game<Move = M>>(&mut self, pos: &G) {
        pos.search_moves(&mut self.moves);
    }

    /// The list so far holds the moves that defend against the opponent's
    /// threat: the rest of the game's search moves follow, held back.
    pub fn hold_back_the_rest<G: Game<Move = M>>(&mut self, pos: &G) {
        self.held = self.moves.len();
        self.extra.clear();
        pos.search_moves(&mut self.extra);
        let defences = &self.moves;
        self.extra.retain(|mv| !defences.contains(mv));
        self.moves.extend_from_slice(&self.extra);
    }

    /// The list is all there is: the game's narrowed moves are not asked
    /// for (a root whose moves were chosen).
    pub fn without_narrowed(&mut self) {
        self.widened = true;
    }

    /// Late-move pruning: after `searched` moves, once one of them holds,
    /// the quiet moves left in the list are skipped.
    pub fn prune_quiet_after(&mut self, searched: usize) {
        self.quiet_limit = Some(searched);
    }

    /// Scores the list for the scored stage, the held-back moves below
    /// every other.
    pub fn score<G: Game<Move = M>>(
        &mut self,
        pos: &G,
        ordering: &Ordering<M>,
        params: &SearchParams,
    ) {
        self.rescore(pos, ordering, params);
        for score in self.scores.iter_mut().skip(self.held) {
            *score -= HELD_BACK;
        }
    }

    /// The ordering scores of the whole list, which ends the list.
    fn rescore<G: Game<Move = M>>(
        &mut self,
        pos: &G,
        ordering: &Ordering<M>,
        params: &SearchParams,
    ) {
        ordering.score_moves(
            pos,
            params,
            &self.moves,
            self.tt_move,
            self.ply,
            &mut self.scores,
        );
        self.listed = self.moves.len();
    }

    /// A quiescence node's list: the game's tactical moves, by the game's
    /// scores alone.
    pub fn tactical<G: Game<Move = M>>(&mut self, pos: &G, params: &SearchParams) {
        self.begin(None, 0);
        self.widened = true;
        pos.tactical_moves(&mut self.moves);
        self.scores.extend(self.moves.iter().map(|&mv| {
            if params.move_scores {
                pos.move_score(mv) as i64
            } else {
                0
            }
        }));
        self.listed = self.moves.len();
    }

    /// The number of moves in the list.
    pub fn len(&self) -> usize {
        self.listed
    }

    /// Whether the list is empty (the node has no move).
    pub fn is_empty(&self) -> bool {
        self.listed == 0
    }

    /// The next move to search, given the best score the node has so far
    /// (`best` ≤ −[`MATE_BOUND`]: everything searched loses); `None` when
    /// the stages are done.
    #[inline(always)]
    pub fn next<G: Game<Move = M>>(
        &mut self,
        pos: &G,
        ordering: &Ordering<M>,
        params: &SearchParams,
        best: i32,
    ) -> Option<Picked<M>> {
        let holds = best > -MATE_BOUND;
        loop {
            let i = self.next;
            if i == self.listed && !self.widened && i > 0 && !holds {
                self.take_in_narrowed(pos, ordering, params);
            }
            if i >= self.listed + self.deferred.len() {
                return None;
            }
            if i == self.held && holds {
                // A defence holds: the held-back moves are not searched.
                // (Once: the deferred moves may follow, and past the list
                // this would be met again.)
                self.skipped += 1;
                self.held = usize::MAX;
                self.next = self.listed;
                continue;
            }
            if let Some(limit) = self.quiet_limit
                && !self.quiet_pruned
                && i > 0
                && i < self.listed
                && i >= limit
                && holds
            {
                self.skip_quiet(pos);
                continue;
            }
            self.next += 1;
            return Some(if i < self.listed {
                pick_next(&mut self.moves, &mut self.scores, i);
                Picked {
                    mv: self.moves[i],
                    index: i,
                    listed: true,
                }
            } else {
                Picked {
                    mv: self.deferred[i - self.listed],
                    index: i,
                    listed: false,
                }
            });
        }
    }

    /// Every listed move lost: the moves the game left out of a narrowed
    /// answer are taken in before a loss is claimed.
    #[cold]
    fn take_in_narrowed<G: Game<Move = M>>(
        &mut self,
        pos: &G,
        ordering: &Ordering<M>,
        params: &SearchParams,
    ) {
        self.widened = true;
        self.extra.clear();
        pos.narrowed_moves(&self.moves, &mut self.extra);
        self.moves.extend_from_slice(&self.extra);
        self.rescore(pos, ordering, params);
    }

    /// Late-move pruning, once it applies, applies to every later quiet
    /// move: they go at once, not sorted only to be skipped one by one.
    #[cold]
    fn skip_quiet<G: Game<Move = M>>(&mut self, pos: &G) {
        self.quiet_pruned = true;
        let from = self.next;
        let mut kept = from;
        let mut kept_before_held = from;
        for j in from..self.listed {
            if pos.quiet_move(self.moves[j]) {
                self.skipped += 1;
                continue;
            }
            self.moves[kept] = self.moves[j];
            self.scores[kept] = self.scores[j];
            kept += 1;
            if j < self.held {
                kept_before_held = kept;
            }
        }
        if self.held != usize::MAX && self.held >= from {
            self.held = kept_before_held;
        }
        self.moves.truncate(kept);
        self.scores.truncate(kept);
        self.listed = kept;
    }

    /// The move just picked is put off to the end (another thread is
    /// searching it).
    pub fn defer(&mut self, picked: Picked<M>) {
        self.deferred.push(picked.mv);
    }

    /// The listed moves picked before `picked`, for the history update of
    /// a cut-off (a deferred move's predecessors are not known).
    pub fn tried_before(&self, picked: Picked<M>) -> &[M] {
        if picked.listed {
            &self.moves[..picked.index]
        } else {
            &[]
        }
    }

    /// Moves not searched because a defence held or as late quiet moves.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tictactoe::TicTacToe;
    use crate::game::{Description, GameError, Outcome, Player, Settings};
    use crate::search::score::INFINITY;
    use proptest::prelude::*;

    /// Tic-tac-toe with the search hooks the stages ask about set by the
    /// test: which cells the game lists (the rest it narrows away), which
    /// moves are quiet, and the game's ordering scores.
    #[derive(Clone)]
    struct Probe {
        board: TicTacToe,
        listed: u16,
        quiet: u16,
        scores: [i32; 9],
    }

    impl Probe {
        fn new(listed: u16, quiet: u16, scores: [i32; 9]) -> Self {
            let board = TicTacToe::start(&Settings::default()).unwrap();
            Probe {
                board,
                listed,
                quiet,
                scores,
            }
        }
    }

    impl Game for Probe {
        type Move = u8;
        const DESCRIPTION: &'static Description = TicTacToe::DESCRIPTION;
        const HISTORY_SLOTS: usize = 9;

        fn start(settings: &Settings) -> Result<Self, GameError> {
            TicTacToe::start(settings)?;
            Ok(Probe::new(0x1ff, 0, [0; 9]))
        }
        fn from_fen(_: &str, _: &Settings) -> Result<Self, GameError> {
            unreachable!("the picker reads no position")
        }
        fn to_fen(&self) -> String {
            self.board.to_fen()
        }
        fn side_to_move(&self) -> Player {
            self.board.side_to_move()
        }
        fn outcome(&self) -> Option<Outcome> {
            self.board.outcome()
        }
        fn generate_moves(&self, moves: &mut Vec<u8>) {
            self.board.generate_moves(moves)
        }
        fn search_moves(&self, moves: &mut Vec<u8>) {
            let from = moves.len();
            self.generate_moves(moves);
            let mut kept = from;
            for j in from..moves.len() {
                if self.listed & (1 << moves[j]) != 0 {
                    moves[kept] = moves[j];
                    kept += 1;
                }
            }
            moves.truncate(kept);
        }
        fn narrowed_moves(&self, listed: &[u8], moves: &mut Vec<u8>) {
            let mut all = Vec::new();
            self.generate_moves(&mut all);
            moves.extend(all.into_iter().filter(|mv| !listed.contains(mv)));
        }
        fn quiet_move(&self, mv: u8) -> bool {
            self.quiet & (1 << mv) != 0
        }
        fn tactical_moves(&self, moves: &mut Vec<u8>) {
            self.search_moves(moves)
        }
        fn make_move(&mut self, mv: u8) {
            self.board.make_move(mv)
        }
        fn unmake_move(&mut self, mv: u8) {
            self.board.unmake_move(mv)
        }
        fn hash(&self) -> u64 {
            self.board.hash()
        }
        fn evaluate(&self) -> i32 {
            0
        }
        fn move_to_string(&self, mv: u8) -> String {
            self.board.move_to_string(mv)
        }
        fn render(&self) -> String {
            self.board.render()
        }
        fn move_score(&self, mv: u8) -> i32 {
            self.scores[mv as usize]
        }
        fn history_slot(&self, mv: u8) -> usize {
            mv as usize
        }
    }

    /// The game's ordering scores: distinct, and not in cell order.
    const SCORES: [i32; 9] = [0, 5, 1, 6, 2, 7, 3, 8, 4];

    /// How a test node answers the picker.
    #[derive(Clone, Default)]
    struct Node {
        /// Searched moves after which the node's best score holds (not a
        /// loss); `None`: every move loses.
        holds_after: Option<usize>,
        /// Moves put off the first time they are picked (not the first).
        defer: Vec<u8>,
    }

    /// Runs `picker` as a node would: the picks in order.
    fn run(picker: &mut MovePicker<u8>, pos: &Probe, node: &Node) -> Vec<Picked<u8>> {
        let ordering = Ordering::new(9);
        let params = SearchParams::default();
        let mut picks = Vec::new();
        let mut searched = 0;
        let mut best = -INFINITY;
        while let Some(picked) = picker.next(pos, &ordering, &params, best) {
            picks.push(picked);
            assert!(picks.len() <= 32, "the picker does not end: {picks:?}");
            if picked.index > 0 && picked.listed && node.defer.contains(&picked.mv) {
                picker.defer(picked);
                continue;
            }
            searched += 1;
            if node.holds_after.is_some_and(|n| searched >= n) {
                best = 0;
            }
        }
        picks
    }

    fn start(picker: &mut MovePicker<u8>, pos: &Probe, tt_move: Option<u8>) {
        picker.begin(tt_move, 3);
        picker.generate(pos);
        picker.score(pos, &Ordering::new(9), &SearchParams::default());
    }

    fn moves(picks: &[Picked<u8>]) -> Vec<u8> {
        picks.iter().map(|p| p.mv).collect()
    }

    fn by_score(cells: impl IntoIterator<Item = u8>) -> Vec<u8> {
        let mut cells: Vec<u8> = cells.into_iter().collect();
        cells.sort_by_key(|&c| -SCORES[c as usize]);
        cells
    }

    #[test]
    fn the_scored_stage_gives_the_table_move_then_every_move_once_by_score() {
        let pos = Probe::new(0x1ff, 0, SCORES);
        let mut picker = MovePicker::default();
        start(&mut picker, &pos, Some(4));
        let picks = run(&mut picker, &pos, &Node::default());
        let mut expected = vec![4];
        expected.extend(by_score((0..9).filter(|&c| c != 4)));
        assert_eq!(moves(&picks), expected);
        assert!(
            picks
                .iter()
                .enumerate()
                .all(|(i, p)| p.index == i && p.listed)
        );
        assert_eq!(picker.skipped(), 0);
        // The history update hears of the moves before a cut-off.
        assert_eq!(picker.tried_before(picks[3]), &expected[..3]);
    }

    #[test]
    fn held_back_moves_come_only_when_every_defence_loses() {
        let pos = Probe::new(0x1ff, 0, SCORES);
        let mut picker = MovePicker::default();
        let defend = |picker: &mut MovePicker<u8>| {
            picker.begin(None, 3);
            picker.list().extend([0, 2]);
            picker.hold_back_the_rest(&pos);
            picker.score(&pos, &Ordering::new(9), &SearchParams::default());
        };
        // The defences come first whatever their scores.
        defend(&mut picker);
        let lost = run(&mut picker, &pos, &Node::default());
        let mut expected = vec![2, 0];
        expected.extend(by_score([1, 3, 4, 5, 6, 7, 8]));
        assert_eq!(moves(&lost), expected);
        assert_eq!(picker.skipped(), 0);
        // A defence that holds: nothing else is searched.
        defend(&mut picker);
        let held = Node {
            holds_after: Some(1),
            ..Node::default()
        };
        assert_eq!(moves(&run(&mut picker, &pos, &held)), [2, 0]);
        assert_eq!(picker.skipped(), 1);
    }

    #[test]
    fn narrowed_moves_come_only_when_every_listed_move_loses() {
        let pos = Probe::new(0b000_010_101, 0, SCORES);
        let mut picker = MovePicker::default();
        start(&mut picker, &pos, None);
        let lost = run(&mut picker, &pos, &Node::default());
        let mut expected = by_score([0, 2, 4]);
        expected.extend(by_score([1, 3, 5, 6, 7, 8]));
        assert_eq!(moves(&lost), expected);
        start(&mut picker, &pos, None);
        let holds = Node {
            holds_after: Some(3),
            ..Node::default()
        };
        assert_eq!(moves(&run(&mut picker, &pos, &holds)), by_score([0, 2, 4]));
        // A root whose list was chosen asks for nothing more.
        picker.begin(None, 0);
        picker.list().extend([4, 0]);
        picker.without_narrowed();
        picker.score(&pos, &Ordering::new(9), &SearchParams::default());
        assert_eq!(moves(&run(&mut picker, &pos, &Node::default())), [4, 0]);
    }

    #[test]
    fn deferred_moves_come_once_more_after_every_other() {
        let pos = Probe::new(0x1ff, 0, SCORES);
        let mut picker = MovePicker::default();
        start(&mut picker, &pos, Some(7));
        let node = Node {
            defer: vec![7, 3, 6],
            ..Node::default()
        };
        let picks = run(&mut picker, &pos, &node);
        let listed: Vec<u8> = picks.iter().filter(|p| p.listed).map(|p| p.mv).collect();
        let deferred: Vec<Picked<u8>> = picks.iter().copied().filter(|p| !p.listed).collect();
        // The first move is never put off; the others in the order put off.
        let mut expected = vec![7];
        expected.extend(by_score((0..9).filter(|&c| c != 7)));
        assert_eq!(listed, expected);
        assert_eq!(moves(&deferred), by_score([3, 6]));
        assert_eq!(deferred[0].index, 9);
        assert_eq!(deferred[1].index, 10);
        assert_eq!(picker.tried_before(deferred[0]), &[] as &[u8]);
    }

    #[test]
    fn late_quiet_moves_are_skipped_once_a_move_holds() {
        let quiet = 0b101_010_101;
        let pos = Probe::new(0x1ff, quiet, SCORES);
        let mut picker = MovePicker::default();
        let order = by_score(0..9);
        let loud = |mv: &u8| quiet & (1 << mv) == 0;
        // Nothing holds: nothing is skipped.
        start(&mut picker, &pos, None);
        picker.prune_quiet_after(3);
        assert_eq!(moves(&run(&mut picker, &pos, &Node::default())), order);
        // The first move holds: after three, only the loud moves.
        start(&mut picker, &pos, None);
        picker.prune_quiet_after(3);
        let holds = Node {
            holds_after: Some(1),
            ..Node::default()
        };
        let mut expected = order[..3].to_vec();
        expected.extend(order[3..].iter().copied().filter(loud));
        assert_eq!(moves(&run(&mut picker, &pos, &holds)), expected);
        let quiet_late = order[3..].iter().filter(|mv| !loud(mv)).count();
        assert_eq!(picker.skipped(), quiet_late as u64);
    }

    #[test]
    fn skipping_quiet_moves_keeps_the_defences_apart_from_the_held_back_moves() {
        // Defences 1, 2, 3, 4 (2 and 4 quiet), then the rest held back.
        let quiet = 0b101_010_100;
        let pos = Probe::new(0x1ff, quiet, SCORES);
        let mut picker = MovePicker::default();
        picker.begin(None, 3);
        picker.list().extend([1, 2, 3, 4]);
        picker.hold_back_the_rest(&pos);
        picker.score(&pos, &Ordering::new(9), &SearchParams::default());
        picker.prune_quiet_after(1);
        let holds = Node {
            holds_after: Some(1),
            ..Node::default()
        };
        let picks = moves(&run(&mut picker, &pos, &holds));
        // The best defence, then the loud defences; no held-back move.
        let first = by_score([1, 2, 3, 4])[0];
        let mut expected = vec![first];
        expected.extend(by_score([1, 3]).into_iter().filter(|&c| c != first));
        assert_eq!(picks, expected);
        // Quiet: 2 or 4 of the defences not picked, and 6 and 8 of the
        // held-back moves; and the held-back stage itself.
        let quiet_defences = [2u8, 4].iter().filter(|&&c| c != first).count();
        assert_eq!(picker.skipped(), quiet_defences as u64 + 2 + 1);
    }

    #[test]
    fn a_quiescence_list_is_the_tactical_moves_by_score() {
        let pos = Probe::new(0b110_000_011, 0, SCORES);
        let mut picker = MovePicker::default();
        picker.tactical(&pos, &SearchParams::default());
        assert_eq!(
            moves(&run(&mut picker, &pos, &Node::default())),
            by_score([0, 1, 7, 8])
        );
    }

    proptest! {
        /// Whatever the stages do, no move is picked twice (but a deferred
        /// one, once more at the end), and when no move holds every move
        /// the game lists or narrows away is picked.
        #[test]
        fn no_stage_drops_or_repeats_a_move(
            listed in 1u16..0x200,
            quiet in 0u16..0x200,
            defences in 0u16..0x200,
            defer in 0u16..0x200,
            tt_move in proptest::option::of(0u8..9),
            limit in proptest::option::of(1usize..6),
            holds_after in proptest::option::of(1usize..9),
        ) {
            let pos = Probe::new(listed, quiet, SCORES);
            let mut picker = MovePicker::default();
            picker.begin(tt_move, 3);
            if defences != 0 {
                picker.list().extend((0..9).filter(|c| defences & (1 << c) != 0));
                picker.hold_back_the_rest(&pos);
            } else {
                picker.generate(&pos);
            }
            picker.score(&pos, &Ordering::new(9), &SearchParams::default());
            if let Some(limit) = limit {
                picker.prune_quiet_after(limit);
            }
            let node = Node {
                holds_after,
                defer: (0..9).filter(|c| defer & (1 << c) != 0).collect(),
            };
            let picks = run(&mut picker, &pos, &node);
            let mut seen_listed = [false; 9];
            let mut seen_deferred = [false; 9];
            prop_assert!(picks.is_empty() || picks[0].index == 0);
            prop_assert!(picks.windows(2).all(|w| w[0].index < w[1].index));
            for p in &picks {
                let seen = if p.listed { &mut seen_listed } else { &mut seen_deferred };
                prop_assert!(!seen[p.mv as usize], "{} twice: {:?}", p.mv, picks);
                seen[p.mv as usize] = true;
                if !p.listed {
                    prop_assert!(seen_listed[p.mv as usize]);
                    prop_assert!(node.defer.contains(&p.mv));
                }
            }
            // A deferred move comes after every listed one.
            let first_deferred = picks.iter().position(|p| !p.listed).unwrap_or(picks.len());
            prop_assert!(picks[first_deferred..].iter().all(|p| !p.listed));
            if holds_after.is_none() {
                prop_assert!(seen_listed.iter().all(|&s| s), "{:?}", picks);
            }
        }
    }
}
