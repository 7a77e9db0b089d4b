//! Depth-first proof-number search (df-pn, Nagai 2002), for any tree a
//! game describes through [`ProofTree`]: whether the side that proves (the
//! attacker, to move at OR nodes) can force a win.
//!
//! Proof and disproof numbers say how many leaves are still to be proved
//! (or disproved) for a node; the search always works below the most
//! proving node, and df-pn does it depth-first with thresholds, so that
//! the tree lives in a table instead of in memory: [`ProofTable`], a fixed
//! number of entries replaced by the work behind them, which can be
//! cleared or aged between searches. Child thresholds use the 1 + ε trick
//! (Pawlewicz and Lew 2007), which saves most of the re-expansions of
//! plain df-pn. Each proved node keeps the length of the proof found
//! (shortest over an OR node's proved children, longest over an AND
//! node's), so that the root's proving move is the quickest win the
//! search knows of, and a game that wants its shortest win can ask for
//! it.
//!
//! The trees here have no cycles (the games' moves are irreversible or
//! the attacker's threats never repeat). A node as deep as the search's
//! limit is not expanded: only what the game tells at once of it counts,
//! and a node it leaves open counts as not proved.

use super::clock::Clock;
use crate::game::{Game, Outcome, Player};

/// Proof and disproof numbers saturate here.
pub const INFINITE: u32 = u32::MAX / 4;
/// ε of the 1 + ε trick, in 64ths (a quarter).
const EPSILON_64THS: u64 = 16;

/// What a position tells at once, before any search below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The attacker has won, or wins in this many plies by a line the
    /// game proves itself (a five next move, a runner no one can stop).
    Proved(u16),
    /// The attacker cannot win from here (the defender has won, or the
    /// game says no threat can come of it).
    Disproved,
    /// Not known: the node must be searched.
    Open,
}

/// What df-pn asks of a game: the positions of one proof tree, walked by
/// making and taking back moves.
pub trait ProofTree {
    /// A move, small and copyable.
    type Move: Copy + PartialEq + std::fmt::Debug;

    /// The key of the current position with its side to move (and, where
    /// the game has several kinds of tree, which).
    fn key(&self) -> u64;

    /// What is known at once of the current position; `or` when the
    /// attacker is to move.
    fn status(&mut self, or: bool) -> Status;

    /// The moves to try: the attacker's at an OR node, every defence that
    /// matters at an AND node. An OR node without moves is disproved; an
    /// AND node without moves is proved, in the plies `unstoppable` says,
    /// or disproved when the attacker threatens nothing (`None`).
    fn moves(&mut self, or: bool, moves: &mut Vec<Self::Move>);

    /// Plies to the attacker's win at an AND node with no moves: `None`
    /// when the attacker threatens nothing (the node is disproved).
    fn unstoppable(&mut self) -> Option<u16>;

    /// Plays `mv`.
    fn play(&mut self, mv: Self::Move);

    /// Takes `mv` back.
    fn undo(&mut self, mv: Self::Move);
}

/// What a df-pn search found for the attacker, to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof<M> {
    /// A win: the first move and the plies to the end of the proof.
    Win(M, u32),
    /// No win (within what the game's moves cover and the depth limit).
    NoWin,
    /// The effort ran out first.
    Unknown,
}

const NO_MOVE: u16 = u16::MAX;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    /// Nodes searched below this one, for replacement.
    work: u32,
    /// Plies to the end of the proof, once proved.
    plies: u16,
    /// At a proved OR node, the place in its move list of the child with
    /// the shortest proof; `NO_MOVE` where the game's first look proved it.
    best: u16,
    /// The table's generation when written.
    age: u8,
    /// For a disproof, the deepest limit it holds under: a search with a
    /// depth limit cuts deeper paths as not proved, so its disproofs hold
    /// only for searches limited as much or more (`u16::MAX`: always).
    limit: u16,
    /// Whether the entry is used.
    used: bool,
}

/// The search's table: proof and disproof numbers by position, a bounded
/// number of entries. Two entries a slot: the one with more work behind
/// it stays, the other is the most recent.
pub struct ProofTable {
    entries: Vec<[Entry; 2]>,
    age: u8,
}

impl ProofTable {
    /// A table of about `megabytes` (at least one slot).
    pub fn new(megabytes: usize) -> ProofTable {
        let slots = (megabytes << 20) / std::mem::size_of::<[Entry; 2]>();
        ProofTable {
            entries: vec![[Entry::default(); 2]; slots.max(1).next_power_of_two() / 2 + 1],
            age: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill([Entry::default(); 2]);
        self.age = 0;
    }

    /// A new generation: entries of older ones give way first. Proofs and
    /// disproofs of the same tree stay true and stay usable.
    pub fn age(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    fn slot(&self, key: u64) -> usize {
        (key % self.entries.len() as u64) as usize
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.entries[self.slot(key)];
        slot.iter().find(|e| e.used && e.key == key).copied()
    }

    fn store(&mut self, entry: Entry) {
        let age = self.age;
        let i = self.slot(entry.key);
        let slot = &mut self.entries[i];
        let entry = Entry {
            age,
            used: true,
            ..entry
        };
        if let Some(same) = slot.iter_mut().find(|e| e.used && e.key == entry.key) {
            *same = entry;
            return;
        }
        // The deeper one (more work, or of this generation) is kept in
        // the first place; the new entry takes the second.
        let first_stale = slot[0].age != age && slot[1].age == age;
        if !slot[0].used || entry.work >= slot[0].work || first_stale {
            slot[1] = slot[0];
            slot[0] = entry;
        } else {
            slot[1] = entry;
        }
    }
}

/// A df-pn search over one [`ProofTree`].
pub struct ProofSearch {
    table: ProofTable,
    nodes: u64,
    max_nodes: u64,
    max_depth: usize,
    clock: Clock,
    aborted: bool,
}

impl ProofSearch {
    /// A search with a table of `megabytes`, at most `max_depth` plies
    /// deep.
    pub fn new(megabytes: usize, max_depth: usize) -> ProofSearch {
        ProofSearch {
            table: ProofTable::new(megabytes),
            nodes: 0,
            max_nodes: u64::MAX,
            max_depth,
            clock: Clock::default(),
            aborted: false,
        }
    }

    /// The table, to clear or age between searches.
    pub fn table(&mut self) -> &mut ProofTable {
        &mut self.table
    }

    /// Positions the last search looked at: expanded, or asked of the
    /// game for the first time.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Bounds the next search by nodes and a clock (its stop flag, its
    /// deadline); `Clock::default()` and `u64::MAX` for none. The limits
    /// are looked at between expansions, so a search may pass the node
    /// limit by one node and its children's first looks.
    pub fn set_limits(&mut self, clock: Clock, max_nodes: u64) {
        self.clock = clock;
        self.max_nodes = max_nodes;
    }

    /// Whether the attacker, to move in `tree`'s current position, can
    /// force a win.
    pub fn prove<T: ProofTree>(&mut self, tree: &mut T) -> Proof<T::Move> {
        self.nodes = 0;
        self.aborted = false;
        let root = self.mid(tree, true, INFINITE - 1, INFINITE - 1, 0);
        if root.pn == 0 {
            let mut moves = Vec::new();
            tree.moves(true, &mut moves);
            // A root the game proves at once has no child to name: a look
            // at its children finds the move.
            match moves.get(usize::from(root.best)) {
                Some(&mv) if root.best != NO_MOVE => Proof::Win(mv, u32::from(root.plies)),
                _ => self
                    .proving_move(tree, &moves)
                    .map_or(Proof::Unknown, |(mv, plies)| Proof::Win(mv, plies)),
            }
        } else if root.dn == 0 {
            Proof::NoWin
        } else {
            Proof::Unknown
        }
    }

    /// The root's proved child with the shortest proof.
    fn proving_move<T: ProofTree>(
        &mut self,
        tree: &mut T,
        moves: &[T::Move],
    ) -> Option<(T::Move, u32)> {
        let mut best: Option<(T::Move, u32)> = None;
        for &mv in moves {
            tree.play(mv);
            let known = self.known(tree, false);
            tree.undo(mv);
            if known.pn == 0 && best.is_none_or(|(_, plies)| u32::from(known.plies) + 1 < plies) {
                best = Some((mv, u32::from(known.plies) + 1));
            }
        }
        best
    }

    /// The numbers of the current position: the table's, or the game's
    /// first look (stored, so that it is asked once).
    fn known<T: ProofTree>(&mut self, tree: &mut T, or: bool) -> Entry {
        let key = tree.key();
        if let Some(e) = self.lookup(key) {
            return e;
        }
        self.nodes += 1;
        let (pn, dn, plies) = match tree.status(or) {
            Status::Proved(plies) => (0, INFINITE, plies),
            Status::Disproved => (INFINITE, 0, 0),
            Status::Open => (1, 1, 0),
        };
        let entry = Entry {
            key,
            pn,
            dn,
            plies,
            best: NO_MOVE,
            limit: u16::MAX,
            ..Entry::default()
        };
        if pn == 0 || dn == 0 {
            self.table.store(entry);
        }
        entry
    }

    /// The table's entry for `key`, if it holds for this search (a
    /// disproof found under a smaller depth limit does not).
    fn lookup(&self, key: u64) -> Option<Entry> {
        self.table
            .probe(key)
            .filter(|e| e.dn != 0 || usize::from(e.limit) >= self.max_depth)
    }

    fn out_of_effort(&mut self) -> bool {
        if self.nodes >= self.max_nodes || (self.nodes.is_multiple_of(1024) && self.clock.expired())
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Multiple iterative deepening at the current position until its
    /// proof number reaches `th_pn` or its disproof number `th_dn`: the
    /// numbers it ends with.
    fn mid<T: ProofTree>(
        &mut self,
        tree: &mut T,
        or: bool,
        th_pn: u32,
        th_dn: u32,
        depth: usize,
    ) -> Entry {
        let key = tree.key();
        let entry = self.known(tree, or);
        if entry.pn == 0 || entry.dn == 0 || entry.pn >= th_pn || entry.dn >= th_dn {
            return entry;
        }
        if depth >= self.max_depth {
            // Too deep: not proved, under this limit (a table kept for a
            // search with a deeper limit must be cleared first).
            let cut = Entry {
                pn: INFINITE,
                dn: 0,
                limit: self.limit(),
                ..entry
            };
            self.table.store(cut);
            return cut;
        }
        self.nodes += 1;
        let start_nodes = self.nodes;
        let mut moves = Vec::new();
        tree.moves(or, &mut moves);
        if moves.is_empty() {
            let (pn, dn, plies) = match (or, tree.unstoppable()) {
                (false, Some(plies)) => (0, INFINITE, plies),
                _ => (INFINITE, 0, 0),
            };
            let done = Entry {
                key,
                pn,
                dn,
                plies,
                work: 1,
                limit: u16::MAX,
                ..Entry::default()
            };
            self.table.store(done);
            return done;
        }
        // Each child is played once here, for its key and the game's first
        // look; afterwards its numbers come from the table by key (where a
        // transposition may have moved them) or from its own search.
        let mut children = Vec::with_capacity(moves.len());
        for &mv in &moves {
            tree.play(mv);
            children.push(self.known(tree, !or));
            tree.undo(mv);
        }
        let mut first = true;
        loop {
            if !first {
                for child in &mut children {
                    if let Some(e) = self.lookup(child.key) {
                        *child = e;
                    }
                }
            }
            first = false;
            let current = Self::combine(key, or, &children);
            if current.pn >= th_pn || current.dn >= th_dn || self.out_of_effort() {
                let work = (self.nodes - start_nodes + 1).min(u64::from(u32::MAX)) as u32;
                let limit = self.limit();
                let done = Entry {
                    work,
                    limit,
                    ..current
                };
                self.table.store(done);
                return done;
            }
            // The most proving child and the threshold it may use.
            let (best, second) = Self::two_best(or, &children);
            let child = children[best];
            let (child_pn, child_dn) = if or {
                let second_pn = second.map_or(INFINITE, |s| children[s].pn);
                (
                    th_pn.min(Self::grown(second_pn)),
                    (th_dn - current.dn)
                        .saturating_add(child.dn)
                        .min(INFINITE - 1),
                )
            } else {
                let second_dn = second.map_or(INFINITE, |s| children[s].dn);
                (
                    (th_pn - current.pn)
                        .saturating_add(child.pn)
                        .min(INFINITE - 1),
                    th_dn.min(Self::grown(second_dn)),
                )
            };
            tree.play(moves[best]);
            children[best] = self.mid(tree, !or, child_pn, child_dn, depth + 1);
            tree.undo(moves[best]);
            if depth == 0 {
                // Progress of a long proof (RUST_LOG=info).
                log::info!(
                    "pns: root proof number {} disproof number {} after {} nodes",
                    current.pn,
                    current.dn,
                    self.nodes
                );
            }
        }
    }

    /// The depth limit as disproofs record it.
    fn limit(&self) -> u16 {
        self.max_depth.min(usize::from(u16::MAX)) as u16
    }

    /// Sets the depth limit of the next searches: disproofs found under a
    /// smaller one are then looked at again.
    pub fn set_max_depth(&mut self, max_depth: usize) {
        self.max_depth = max_depth;
    }

    /// A sibling's number grown by ε: the threshold the best child may
    /// reach before the search turns to its sibling.
    fn grown(n: u32) -> u32 {
        let grown = u64::from(n) + (u64::from(n) * EPSILON_64THS).div_ceil(64);
        grown.clamp(1, u64::from(INFINITE - 1)) as u32
    }

    /// A node's numbers and proof length from its children's.
    fn combine(key: u64, or: bool, children: &[Entry]) -> Entry {
        let (mut pn, mut dn) = if or { (INFINITE, 0) } else { (0, INFINITE) };
        let mut plies = if or { u16::MAX } else { 0 };
        let mut best = 0;
        for (i, c) in children.iter().enumerate() {
            if or {
                pn = pn.min(c.pn);
                dn = dn.saturating_add(c.dn).min(INFINITE);
                if c.pn == 0 && c.plies.saturating_add(1) < plies {
                    plies = c.plies.saturating_add(1);
                    best = i as u16;
                }
            } else {
                pn = pn.saturating_add(c.pn).min(INFINITE);
                dn = dn.min(c.dn);
                plies = plies.max(c.plies.saturating_add(1));
            }
        }
        Entry {
            key,
            pn,
            dn,
            plies: if pn == 0 { plies } else { 0 },
            best,
            ..Entry::default()
        }
    }

    /// The index of the most proving child (least proof number at an OR
    /// node, least disproof number at an AND node) and of the next one.
    fn two_best(or: bool, children: &[Entry]) -> (usize, Option<usize>) {
        let number = |e: &Entry| if or { e.pn } else { e.dn };
        let mut best = 0;
        let mut second = None;
        for i in 1..children.len() {
            if number(&children[i]) < number(&children[best]) {
                second = Some(best);
                best = i;
            } else if second.is_none_or(|s| number(&children[i]) < number(&children[s])) {
                second = Some(i);
            }
        }
        (best, second)
    }
}

/// A whole game as a proof tree: can the attacker (the side to move at
/// the root) force a win? A position is settled at once when the game is
/// over, when the side to move wins with its next move, or when the game
/// names the winner of a race ([`Game::proved_winner`]); otherwise the
/// moves tried are those that do not lose at once
/// ([`Game::non_losing_moves`]). A draw is not a win.
pub struct WholeGame<G: Game> {
    /// The position searched from (back at the root after a search).
    pub pos: G,
    attacker: Player,
    root: u64,
}

impl<G: Game> WholeGame<G> {
    /// The tree of `pos`, its side to move attacking.
    pub fn new(pos: G) -> Self {
        let attacker = pos.side_to_move();
        let root = pos.hash();
        WholeGame {
            pos,
            attacker,
            root,
        }
    }

    fn proved_for(&self, winner: Player, plies: u32) -> Status {
        if winner == self.attacker {
            Status::Proved(plies.min(u32::from(u16::MAX - 1)) as u16)
        } else {
            Status::Disproved
        }
    }
}

impl<G: Game> ProofTree for WholeGame<G> {
    type Move = G::Move;

    fn key(&self) -> u64 {
        // The same position is another question for the other attacker.
        self.pos.hash() ^ (self.attacker.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn status(&mut self, _or: bool) -> Status {
        match self.pos.outcome() {
            Some(Outcome::Win(p)) => return self.proved_for(p, 0),
            Some(Outcome::Draw) => return Status::Disproved,
            None => {}
        }
        let mover = self.pos.side_to_move();
        if self.pos.winning_move().is_some() {
            return self.proved_for(mover, 1);
        }
        match self.pos.proved_winner() {
            Some((winner, plies)) => self.proved_for(winner, plies),
            None => Status::Open,
        }
    }

    /// The moves that do not lose at once. Only the root is asked for
    /// its moves when it may have a winning move (settled at once, its
    /// proving move is looked for): there the winning move alone.
    fn moves(&mut self, _or: bool, moves: &mut Vec<G::Move>) {
        if self.pos.hash() == self.root
            && let Some(mv) = self.pos.winning_move()
        {
            moves.push(mv);
        } else {
            self.pos.non_losing_moves(moves);
        }
    }

    /// A defender whose every move lets the attacker win at once loses
    /// two plies on; one with no move at all is left to the rules
    /// (`outcome`), and counts as not lost here.
    fn unstoppable(&mut self) -> Option<u16> {
        let mut any = Vec::new();
        self.pos.generate_moves(&mut any);
        (!any.is_empty()).then_some(2)
    }

    fn play(&mut self, mv: G::Move) {
        self.pos.make_move(mv);
    }

    fn undo(&mut self, mv: G::Move) {
        self.pos.unmake_move(mv);
    }
}

/// A game's value for the side to move at `root`, proved by df-pn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameValue<M> {
    /// A win: the first move, and the plies to the end of the proof found
    /// (an upper bound on the shortest win).
    Win(M, u32),
    /// A draw: a move that keeps it.
    Draw(Option<M>),
    /// A loss: the plies to the end of the longest proof of the other
    /// side's wins, when they were searched (`None` in a game without
    /// draws, where failing to win is losing).
    Loss(Option<u32>),
}

/// Solves `root` weakly: whether its side to move wins, and else, in a
/// game with draws, whether the other side wins after every move. `None`
/// when the search's limits cut it short.
pub fn solve_game<G: Game>(search: &mut ProofSearch, root: &G) -> Option<GameValue<G::Move>> {
    let mut nodes = 0;
    let value = game_value(search, root, &mut nodes);
    search.nodes = nodes;
    value
}

/// Whether the side to move at `pos` wins, its search's nodes added to
/// `nodes`.
fn prove_counted<G: Game>(search: &mut ProofSearch, pos: &G, nodes: &mut u64) -> Proof<G::Move> {
    let proof = search.prove(&mut WholeGame::new(pos.clone()));
    *nodes += search.nodes;
    proof
}

fn game_value<G: Game>(
    search: &mut ProofSearch,
    root: &G,
    nodes: &mut u64,
) -> Option<GameValue<G::Move>> {
    match root.outcome() {
        Some(Outcome::Draw) => return Some(GameValue::Draw(None)),
        Some(Outcome::Win(p)) if p != root.side_to_move() => return Some(GameValue::Loss(Some(0))),
        Some(_) => return None,
        None => {}
    }
    match prove_counted(search, root, nodes) {
        Proof::Win(mv, plies) => return Some(GameValue::Win(mv, plies)),
        Proof::Unknown => return None,
        Proof::NoWin if !G::DESCRIPTION.draws => return Some(GameValue::Loss(None)),
        Proof::NoWin => {}
    }
    // Lost only if the other side wins after every move.
    let mut moves = Vec::new();
    root.generate_moves(&mut moves);
    let mut longest = 0;
    let mut pos = root.clone();
    for mv in moves {
        pos.make_move(mv);
        let proof = prove_counted(search, &pos, nodes);
        pos.unmake_move(mv);
        match proof {
            Proof::Win(_, plies) => longest = longest.max(plies + 1),
            Proof::NoWin => return Some(GameValue::Draw(Some(mv))),
            Proof::Unknown => return None,
        }
    }
    Some(GameValue::Loss(Some(longest)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::Connect4;
    use crate::game::tictactoe::TicTacToe;
    use crate::game::{Game, Settings};
    use crate::search::reference;
    use crate::search::score::MATE;
    use crate::search::solver::tests::positions;

    /// df-pn agrees with plain negamax searched to the end: a win is
    /// found exactly where negamax scores one, its move keeps the win, and
    /// its length is no shorter than the shortest.
    fn agrees_with_negamax<G: Game>(pos: &G, search: &mut ProofSearch, depth: i32) {
        search.table().clear();
        let exact = reference::negamax(&mut pos.clone(), depth, false);
        let mut tree = WholeGame::new(pos.clone());
        let found = search.prove(&mut tree);
        assert_eq!(tree.pos.hash(), pos.hash(), "the tree is back at its root");
        match found {
            Proof::Win(mv, plies) => {
                assert!(exact > 0, "{} proved, negamax {exact}", pos.to_fen());
                let mut after = pos.clone();
                after.make_move(mv);
                let kept = -reference::negamax(&mut after, depth - 1, false);
                assert!(kept > 0, "{} {mv:?} does not win", pos.to_fen());
                assert!(plies as i32 >= MATE - exact, "{} {plies}", pos.to_fen());
            }
            Proof::NoWin => assert!(exact <= 0, "{} negamax {exact}", pos.to_fen()),
            Proof::Unknown => panic!("{} not settled", pos.to_fen()),
        }
    }

    #[test]
    fn tic_tac_toe_wins_are_found_exactly_where_negamax_finds_them() {
        let mut search = ProofSearch::new(1, 64);
        let mut all = Vec::new();
        positions(
            &mut TicTacToe::start(&Settings::default()).unwrap(),
            9,
            &mut all,
        );
        assert!(all.len() > 5000, "{}", all.len());
        let mut wins = 0;
        for pos in all.iter().step_by(7) {
            agrees_with_negamax(pos, &mut search, 10);
            wins += usize::from(reference::negamax(&mut pos.clone(), 10, false) > 0);
        }
        assert!(wins > 100, "{wins}");
    }

    /// A whole game solved weakly agrees with negamax: wins, draws and
    /// losses where negamax finds them, moves that keep the value, and
    /// lengths no shorter than the true ones.
    #[test]
    fn tic_tac_toe_values_are_solved_as_negamax_finds_them() {
        let mut search = ProofSearch::new(1, 64);
        let mut all = Vec::new();
        positions(
            &mut TicTacToe::start(&Settings::default()).unwrap(),
            9,
            &mut all,
        );
        let mut seen = [0; 3];
        for pos in all.iter().step_by(5) {
            let exact = reference::negamax(&mut pos.clone(), 10, false);
            let value = solve_game(&mut search, pos).expect("no limits");
            let kept = |mv: <TicTacToe as Game>::Move| -> i32 {
                let mut after = pos.clone();
                after.make_move(mv);
                -reference::negamax(&mut after, 9, false)
            };
            match value {
                GameValue::Win(mv, plies) => {
                    assert!(exact > 0 && kept(mv) > 0, "{}", pos.to_fen());
                    assert!(plies as i32 >= MATE - exact);
                    seen[0] += 1;
                }
                GameValue::Draw(mv) => {
                    assert_eq!(exact, 0, "{}", pos.to_fen());
                    assert_eq!(kept(mv.unwrap()), 0, "{}", pos.to_fen());
                    seen[1] += 1;
                }
                GameValue::Loss(plies) => {
                    assert!(exact < 0, "{}", pos.to_fen());
                    assert!(plies.unwrap() as i32 >= MATE + exact);
                    seen[2] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 20), "{seen:?}");
        let start = TicTacToe::start(&Settings::default()).unwrap();
        assert!(matches!(
            solve_game(&mut search, &start),
            Some(GameValue::Draw(Some(_)))
        ));
    }

    #[test]
    fn connect4_endgames_are_proved_as_negamax_scores_them() {
        let mut search = ProofSearch::new(4, 64);
        for line in [
            "742234173564774116613357347324256",
            "225257625346224411156336534367135",
        ] {
            let mut root = Connect4::start(&Settings::default()).unwrap();
            for ch in line.chars() {
                let mv = root.parse_move(&ch.to_string()).unwrap();
                root.make_move(mv);
            }
            let mut all = Vec::new();
            positions(&mut root, 3, &mut all);
            for pos in &all {
                let left = pos.plies_left_bound().unwrap() as i32;
                agrees_with_negamax(pos, &mut search, left + 1);
            }
        }
    }

    #[test]
    fn the_effort_limit_stops_a_search_unsettled() {
        let mut search = ProofSearch::new(1, 64);
        search.set_limits(Clock::default(), 50);
        let mut tree = WholeGame::new(Connect4::start(&Settings::default()).unwrap());
        assert_eq!(search.prove(&mut tree), Proof::Unknown);
        // The limit is looked at between expansions: it may be passed by
        // one node and its children's first looks (7 in Connect Four).
        assert!(search.nodes() <= 50 + 1 + 7, "{}", search.nodes());
        assert!(search.nodes() >= 50, "{}", search.nodes());
        assert_eq!(
            tree.pos.hash(),
            Connect4::start(&Settings::default()).unwrap().hash()
        );
    }

    #[test]
    fn a_proof_deeper_than_the_limit_is_not_claimed() {
        // A tic-tac-toe position whose shortest win takes 5 plies.
        let mut all = Vec::new();
        positions(
            &mut TicTacToe::start(&Settings::default()).unwrap(),
            4,
            &mut all,
        );
        let pos = all
            .into_iter()
            .find(|p| reference::negamax(&mut p.clone(), 10, false) == MATE - 5)
            .unwrap();
        // The attacker's third move wins at once: the game's first look
        // at the position before it (4 plies deep) proves it, unexpanded.
        let deep = ProofSearch::new(1, 4).prove(&mut WholeGame::new(pos.clone()));
        assert!(matches!(deep, Proof::Win(_, 5)), "{deep:?}");
        let shallow = ProofSearch::new(1, 3).prove(&mut WholeGame::new(pos));
        assert_eq!(shallow, Proof::NoWin);
    }

    #[test]
    fn a_small_table_ages_and_still_proves() {
        let mut search = ProofSearch::new(1, 64);
        let root = Connect4::start(&Settings::default()).unwrap();
        let mut late = root.clone();
        for ch in "742234173564774116613357347324".chars() {
            let mv = late.parse_move(&ch.to_string()).unwrap();
            late.make_move(mv);
        }
        let left = late.plies_left_bound().unwrap() as i32;
        agrees_with_negamax(&late, &mut search, left + 1);
        // A second search of the next generation over the first one's
        // entries: they stay true.
        search.table().age();
        let found = search.prove(&mut WholeGame::new(late.clone()));
        let exact = reference::negamax(&mut late.clone(), left + 1, false);
        assert_eq!(matches!(found, Proof::Win(..)), exact > 0);
    }
}
