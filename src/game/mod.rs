#![warn(missing_docs)]
//! The rules layer: every game implements [`Game`]. A game knows nothing of
//! search or protocols; what search needs from it enters through the hook
//! methods at the bottom of the trait, which have neutral defaults.

pub mod bits;
pub mod blackwhite;
pub mod breakthrough;
pub mod connect4;
pub mod description;
pub mod family;
pub mod gomoku;
pub mod lasca;
pub mod perft;
pub mod tictactoe;
pub mod zobrist;

use std::fmt::Debug;

pub use description::{Boards, Description, SolveNotation};
pub use family::{Family, GameVisitor};

/// A move written as a 64-bit word and read back, so that a table shared
/// by several search threads can hold it in atomic words. `pack` must use
/// no more bits than the move's size in memory (rounded up to 32 bits);
/// `unpack` must accept any bits (a word that was never packed gives some
/// move, which the search checks for legality before it plays it).
pub trait PackedMove: Sized {
    /// The move as bits.
    fn pack(self) -> u64;
    /// A move from bits; `unpack(pack(m)) == m`.
    fn unpack(bits: u64) -> Self;
}

macro_rules! packed_integer {
    ($($t:ty),*) => {$(
        impl PackedMove for $t {
            fn pack(self) -> u64 {
                self as u64
            }
            fn unpack(bits: u64) -> Self {
                bits as $t
            }
        }
    )*};
}
packed_integer!(u8, u16, u32, u64);

/// The two sides. `P1` moves first from the standard start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The first player (X, black in Gomoku, white in Breakthrough).
    P1,
    /// The second player.
    P2,
}

impl Player {
    /// The opponent.
    pub fn other(self) -> Player {
        match self {
            Player::P1 => Player::P2,
            Player::P2 => Player::P1,
        }
    }

    /// 0 for P1, 1 for P2: an index into per-player arrays.
    pub fn index(self) -> usize {
        match self {
            Player::P1 => 0,
            Player::P2 => 1,
        }
    }
}

/// How a finished game ended, in absolute terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

/// The best result the side to move can still get, known from the rules
/// without search ([`Game::result_ceiling`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ceiling {
    /// No win is left: at best a draw.
    Draw,
    /// A loss, the game ending within this many plies at the latest.
    Loss(u32),
}

/// What ranking the solver's moves showed about a win on the side to
/// move's next turn ([`Game::order_solver_moves`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextTurnWin<M> {
    /// After this move the opponent has no reply that stops a win on the
    /// side to move's next move: a win three plies from here.
    By(M),
    /// No move does that: a win, if any, comes no sooner than the side to
    /// move's third move from here.
    Impossible,
    /// The ranking did not look (the default).
    Unknown,
}

/// What the game's wider threat search ([`Game::threat_verdict`]) found
/// for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreatVerdict<M> {
    /// A win: the first move and the plies until the game is won.
    Win(M, u32),
    /// Proved: no win by threats (a slower one may still exist).
    NoWin,
    /// Neither proved within the effort, or the game has no such search.
    Unknown,
}

/// How much work the search gives the game's threat searches, in the
/// game's own units (positions of its threat search): fixed efforts, and
/// at the root efforts per millisecond left on the clock, so that they
/// follow the game's speed. A node limit counts as time at
/// `nodes_per_ms`, the game's speed in search nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreatEfforts {
    /// A proof at a node inside the tree ([`Game::forced_win`]).
    pub tree: u64,
    /// A proof at the horizon ([`Game::quick_win`]).
    pub leaf: u64,
    /// The defence against the opponent's quick win
    /// ([`Game::threat_defences`]).
    pub defence: u64,
    /// A proof at the root, per millisecond left on the clock.
    pub root_per_ms: u64,
    /// A proof at the root, at most (at least `tree`).
    pub root: u64,
    /// The wider threat search at the root (a win, then the defence
    /// against the opponent's), per millisecond left.
    pub space_per_ms: u64,
    /// The wider threat search at the root, at least.
    pub space_min: u64,
    /// The wider threat search at the root, at most.
    pub space: u64,
    /// The last test of an unfinished iteration's best move when the time
    /// is up (about a millisecond).
    pub last_check: u64,
    /// Search nodes a millisecond buys.
    pub nodes_per_ms: u64,
}

impl ThreatEfforts {
    /// Sized for gomoku, whose threat searches these were measured on
    /// (about a million search nodes a second). The tree's and the
    /// horizon's efforts are tunable (`TVCFE`, `LVCFE`).
    pub const DEFAULT: ThreatEfforts = ThreatEfforts {
        tree: 64,
        leaf: 16,
        defence: 64,
        root_per_ms: 20,
        root: 50_000,
        space_per_ms: 32,
        space_min: 300,
        space: 64_000,
        last_check: 1_000,
        nodes_per_ms: 1_000,
    };
}

/// Why a position, move or setting was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The text is not a legal move in the position.
    #[error("illegal move '{0}'")]
    IllegalMove(String),
    /// The position text cannot be read.
    #[error("bad position '{fen}': {reason}")]
    BadPosition {
        /// The text as given.
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The game does not offer this board size or rule.
    #[error("unsupported setting: {0}")]
    Unsupported(String),
}

impl GameError {
    /// A [`GameError::BadPosition`] for `fen`.
    pub fn bad_position(fen: &str, reason: impl Into<String>) -> GameError {
        GameError::BadPosition {
            fen: fen.to_string(),
            reason: reason.into(),
        }
    }
}

/// Variant settings a game may honour (board size, rule set). Games that
/// have no variants reject anything but the defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Board width and height, when the game has a variable board.
    pub size: Option<(usize, usize)>,
    /// Rule-set name, when the game has several.
    pub rule: Option<String>,
}

/// Evaluations must stay strictly inside this bound so that they never look
/// like mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// The rules of a two-player, zero-sum, perfect-information game, as the
/// searcher, the tools and the protocols use them. Implement it (with a
/// [`Description`]) and everything else works: [`crate::search::Searcher`]
/// searches it, [`perft::perft`] counts it, [`crate::tools::solve::solve`]
/// solves it through a [`crate::engine::session::GameSession`], and
/// [`crate::protocol::ugi::run_with_session`] serves it over UGI.
/// `examples/nim.rs` is a complete small game outside this crate.
///
/// The required methods are the rules; the hooks after them tell the search
/// what the game knows and have neutral defaults.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move, small and copyable: it lives in move lists and in the
    /// transposition table. It must carry whatever `unmake_move` needs.
    type Move: Copy + Eq + Default + Send + Sync + Debug + PackedMove + 'static;

    /// What the game says about itself to tools and protocols.
    const DESCRIPTION: &'static Description;

    /// The name used by `--game` and `setoption name Game`.
    const NAME: &'static str = Self::DESCRIPTION.name;

    /// Number of distinct slots [`Game::history_slot`] maps moves onto.
    const HISTORY_SLOTS: usize;

    /// The work the search gives the game's threat searches, by the
    /// game's speed. Used only by a game that has them.
    const THREAT_EFFORTS: ThreatEfforts = ThreatEfforts::DEFAULT;

    /// Whether [`Game::hash_after`] is cheaper than making the move (a
    /// game that overrides it says so): the search then loads a child's
    /// table entry while the move is made.
    const HASH_AFTER_IS_CHEAP: bool = false;

    /// Whether a timed play search gives the exact solver the first share
    /// of its time, with a solver table kept beside the main one: for a
    /// game whose [`Game::plies_left_bound`] is short enough that proofs
    /// come within a move's time (Connect Four). A bound alone does not
    /// say so: Breakthrough's is a hundred plies and more.
    const SOLVER_FIRST: bool = false;

    /// The start position of the variant `settings` names; `Err` for a size
    /// or rule the game does not offer.
    fn start(settings: &Settings) -> Result<Self, GameError>;
    /// Reads a position in the game's own text form (what [`Game::to_fen`]
    /// writes).
    fn from_fen(fen: &str, settings: &Settings) -> Result<Self, GameError>;
    /// The position as text, side to move included.
    fn to_fen(&self) -> String;

    /// Whose turn it is.
    fn side_to_move(&self) -> Player;

    /// `Some` once the game is over. When it is `None`, at least one legal
    /// move exists.
    fn outcome(&self) -> Option<Outcome>;

    /// Appends the legal moves to `moves` (none once the game is over).
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);
    /// Plays a legal move.
    fn make_move(&mut self, mv: Self::Move);
    /// Takes back `mv`, which must be the last move made.
    fn unmake_move(&mut self, mv: Self::Move);

    /// Zobrist key of the position, side to move included.
    fn hash(&self) -> u64;

    /// Static evaluation from the side to move's point of view, strictly
    /// within `±EVAL_LIMIT`.
    fn evaluate(&self) -> i32;

    /// Text of a move. Valid for every position of the same game settings,
    /// so that a principal variation can be printed from the root.
    fn move_to_string(&self, mv: Self::Move) -> String;

    /// Parses a move and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        let wanted = text.trim();
        moves
            .into_iter()
            .find(|&mv| self.move_to_string(mv).eq_ignore_ascii_case(wanted))
            .ok_or_else(|| GameError::IllegalMove(text.to_string()))
    }

    /// The board drawn for a person, with coordinates.
    fn render(&self) -> String;

    /// Appends the empty cells the rules forbid to a player, whichever
    /// side is to move (renju's forbidden points for black). None by
    /// default.
    fn forbidden_moves(&self, _moves: &mut Vec<Self::Move>) {}

    // ---- hooks for search, with neutral defaults ----

    /// The moves search looks at: all legal moves by default. A game may
    /// leave out moves that cannot matter (far from every stone) or answer
    /// a must-win / must-block situation with the forced moves only; it
    /// must return at least one move whenever a legal move exists.
    fn search_moves(&self, moves: &mut Vec<Self::Move>) {
        self.generate_moves(moves)
    }

    /// Appends the moves `search_moves` left out of a narrowed answer
    /// (a defence it does not judge one, say) that could still matter,
    /// none of `listed`. The search tries them only when every listed move
    /// loses, so that no loss is claimed that one of them avoids. None by
    /// default.
    fn narrowed_moves(&self, _listed: &[Self::Move], _moves: &mut Vec<Self::Move>) {}

    /// Ordering hint: higher is searched earlier.
    fn move_score(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// Index into the history table, below `HISTORY_SLOTS`.
    /// Index into the history table, below `HISTORY_SLOTS`: moves that
    /// share a slot share what the history heuristic learns.
    fn history_slot(&self, mv: Self::Move) -> usize;

    /// Moves worth searching at the horizon (quiescence). None by default.
    fn tactical_moves(&self, _moves: &mut Vec<Self::Move>) {}

    /// A win the game proves by its own threat search (in gomoku, by
    /// continuous fours) for the side to move: the first move and the
    /// plies until the game is won. `effort` bounds the work in the game's
    /// own units (nodes of its threat search). None by default.
    fn forced_win(&mut self, _effort: u64) -> Option<(Self::Move, u32)> {
        None
    }

    /// [`Game::forced_win`] for the horizon, where most positions have no
    /// such win: a faster search that may miss some wins (in gomoku, the
    /// fours after the first stay near the previous one), never claiming a
    /// false one. The full search by default.
    fn quick_win(&mut self, effort: u64) -> Option<(Self::Move, u32)> {
        self.forced_win(effort)
    }

    /// A win proved by the game's wider, slower threat search (in gomoku,
    /// continuous threats: fours and threes), in the terms of
    /// [`Game::forced_win`]. The search asks it at the root and near it,
    /// and to find the root moves that defend against the opponent's such
    /// win. From [`Game::threat_verdict`].
    fn threat_win(&mut self, effort: u64) -> Option<(Self::Move, u32)> {
        match self.threat_verdict(effort) {
            ThreatVerdict::Win(mv, plies) => Some((mv, plies)),
            ThreatVerdict::NoWin | ThreatVerdict::Unknown => None,
        }
    }

    /// Takes over `from`'s own tables (its threat searches' results, kept
    /// by position), so that a search of a later position of the same game
    /// starts with what an earlier one proved, as the transposition table
    /// does. Nothing by default; nothing when the two differ in their rules.
    fn take_caches(&mut self, _from: &mut Self) {}

    /// The wider threat search's full answer: a win, a proof that there
    /// is none, or neither. Unknown by default.
    fn threat_verdict(&mut self, _effort: u64) -> ThreatVerdict<Self::Move> {
        ThreatVerdict::Unknown
    }

    /// The defence against the opponent's quick win: when the opponent,
    /// were it to move now (the side to move passing), would have a win
    /// the game's quick threat search ([`Game::quick_win`]) proves within
    /// `effort`, appends the moves that may stop it (in gomoku, our fours
    /// and the cells the proof's line uses) and says true. The search then
    /// tries these first, and the rest only if all of them lose. False,
    /// with nothing appended, when there is no such win or the game does
    /// not say (the default), and where [`Game::search_moves`] already
    /// answers the threat.
    fn threat_defences(&mut self, _effort: u64, _moves: &mut Vec<Self::Move>) -> bool {
        false
    }

    /// The positions the game's threat searches ([`Game::forced_win`],
    /// [`Game::quick_win`], [`Game::threat_verdict`],
    /// [`Game::threat_defences`]) visited since the last call, for the
    /// searcher to count as nodes, as it counts its own: where threats
    /// abound they are most of the work. Zero by default.
    fn take_threat_nodes(&mut self) -> u64 {
        0
    }

    /// Whether `mv` (a move of the side to move, not yet made) is quiet:
    /// one that late-move reductions may search less deeply, and that
    /// late-move pruning may skip near the horizon, when it comes late in
    /// the ordering. A game opts in by saying which moves are quiet; by
    /// default none is, so the search is exactly as without reductions.
    fn quiet_move(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Whether a node the transposition table knows no move for may be
    /// searched a ply shallower (internal iterative reduction): a guess
    /// that the move ordering matters more than the ply, which a game opts
    /// in to. By default it does not, and the search is exactly as
    /// without it.
    fn unordered_reduction(&self) -> bool {
        false
    }

    /// Whether `mv` (not yet made) forces the reply so narrowly that it
    /// should not cost depth: the search extends it by one ply. None by
    /// default.
    fn forcing_move(&self, _mv: Self::Move) -> bool {
        false
    }

    /// How far a search `depth` plies deep may move the value from the
    /// static evaluation here, in evaluation units: futility pruning and
    /// razoring trust the evaluation that far. `None` (the default) where
    /// the evaluation cannot be trusted so, and in games that do not opt
    /// in: the search is then exactly as without them.
    fn futility_margin(&self, _depth: i32) -> Option<i32> {
        None
    }

    /// Whether passing is a safe guess here (no zugzwang danger). Games
    /// where passing is never sound keep the default.
    fn null_move_allowed(&self) -> bool {
        false
    }

    /// Passes the turn; only called when `null_move_allowed` said so.
    fn make_null_move(&mut self) {
        unreachable!("{} has no null move", Self::NAME)
    }

    /// Takes back [`Game::make_null_move`].
    fn unmake_null_move(&mut self) {
        unreachable!("{} has no null move", Self::NAME)
    }

    // ---- hooks for the time manager (search::time), with neutral defaults ----

    /// The side to move's moves a game clock should be shared over, when
    /// the clock does not say (no `movestogo`): how many more the game is
    /// likely to need of it. `None` (the default) leaves it to the time
    /// manager, which assumes 30.
    fn moves_to_go(&self) -> Option<u32> {
        None
    }

    /// The most moves the side to move can still have to make, for a game
    /// whose board fills up: a game clock keeps a little time back for
    /// each. `None` (the default) keeps nothing back: a loose bound, such
    /// as Breakthrough's [`Game::plies_left_bound`], would hold back time
    /// that is never needed.
    fn most_moves_left(&self) -> Option<u32> {
        None
    }

    // ---- hooks for exact solving (search::solver), with neutral defaults ----

    /// The most plies the game can still last from here, when the game
    /// knows a bound (a board that fills up). It bounds how late a win can
    /// come, and so the range of exact scores the solver narrows.
    fn plies_left_bound(&self) -> Option<u32> {
        None
    }

    /// A winner the rules name from here without search, and the most
    /// plies its win takes: a runner no defender can stop before it gets
    /// through, a threat to win that cannot be parried. Proof-number
    /// search takes it as proved. `None` when the game sees none (the
    /// default). A win on the next move need not be named here:
    /// [`Game::winning_move`] finds it.
    fn proved_winner(&self) -> Option<(Player, u32)> {
        None
    }

    /// A move that wins at once, if the side to move has one. The default
    /// tries every legal move.
    fn winning_move(&self) -> Option<Self::Move> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        let side = self.side_to_move();
        let mut child = self.clone();
        moves.into_iter().find(|&mv| {
            child.make_move(mv);
            let wins = child.outcome() == Some(Outcome::Win(side));
            child.unmake_move(mv);
            wins
        })
    }

    /// A key shared by the positions the game's symmetries map onto each
    /// other (a board and its mirror image), for tables that outlive a
    /// search and fold symmetric positions into one entry (opening books).
    /// Books store it on disk, so it must not change between versions.
    /// The default is [`Game::hash`]: no symmetry.
    fn symmetric_key(&self) -> u64 {
        self.hash()
    }

    /// The exact solver's table key: one key for a position and its
    /// mirror image (when the game has that symmetry), and whether this
    /// position is the mirrored one of the pair, whose moves the table
    /// keeps mirrored ([`Game::mirror_move`]). Unlike
    /// [`Game::symmetric_key`] it is never stored on disk. The default is
    /// [`Game::hash`], unmirrored.
    fn solver_key(&self) -> (u64, bool) {
        (self.hash(), false)
    }

    /// [`Game::solver_key`]'s key after `mv`, for prefetching. The default
    /// makes the move on a copy.
    fn solver_key_after(&self, mv: Self::Move) -> u64 {
        let mut child = self.clone();
        child.make_move(mv);
        child.solver_key().0
    }

    /// The move that plays `mv` on the mirror image of the position
    /// (the default: no symmetry, `mv` itself).
    fn mirror_move(&self, mv: Self::Move) -> Self::Move {
        mv
    }

    /// The best the side to move can still get, as the rules show it
    /// without search (a draw when no line of its own can be completed any
    /// more; a loss when the opponent has a strategy that surely wins),
    /// for the solver's bounds. `None` (the default) when nothing is known.
    fn result_ceiling(&self) -> Option<Ceiling> {
        None
    }

    /// The key [`Game::hash`] would give after `mv`, for prefetching table
    /// entries. The default makes the move on a copy.
    fn hash_after(&self, mv: Self::Move) -> u64 {
        let mut child = self.clone();
        child.make_move(mv);
        child.hash()
    }

    /// The moves after which the opponent cannot win at once, best first
    /// for the solver (or in a cheap order that
    /// [`Game::order_solver_moves`] puts right): when the opponent
    /// threatens to win, only the forced reply (none when it threatens
    /// twice). Empty when every move loses at once. Only asked when the
    /// side to move has no winning move. The default tries every legal
    /// move and orders them by `move_score`.
    fn non_losing_moves(&self, moves: &mut Vec<Self::Move>) {
        non_losing_moves_by_trial(self, moves);
        moves.sort_by_key(|&mv| std::cmp::Reverse(self.move_score(mv)));
    }

    /// Puts [`Game::non_losing_moves`]' moves in the order the solver
    /// tries them, best first, for a game whose ordering costs more than
    /// the list: the solver asks only at the nodes it searches, after its
    /// table has had its say. It may also tell whether one of the moves
    /// leaves the opponent no reply but ones that lose at once (the
    /// solver then needs no search here, and without one it knows no win
    /// comes before its third move). The default leaves the moves as they
    /// are and does not look.
    fn order_solver_moves(&self, _moves: &mut [Self::Move]) -> NextTurnWin<Self::Move> {
        NextTurnWin::Unknown
    }
}

/// The legal moves of `pos` after which the opponent has no winning move,
/// found by trying each (the default of [`Game::non_losing_moves`], and
/// the yardstick for games that know a quicker way).
pub fn non_losing_moves_by_trial<G: Game>(pos: &G, moves: &mut Vec<G::Move>) {
    let mut all = Vec::new();
    pos.generate_moves(&mut all);
    let mut child = pos.clone();
    for mv in all {
        child.make_move(mv);
        if child.outcome().is_some() || child.winning_move().is_none() {
            moves.push(mv);
        }
        child.unmake_move(mv);
    }
}

/// Splits a FEN-like string into its board part and its side-to-move part.
pub fn split_fen(fen: &str) -> Result<(&str, Player), GameError> {
    let mut parts = fen.split_whitespace();
    let board = parts
        .next()
        .ok_or_else(|| GameError::bad_position(fen, "empty"))?;
    let side = match parts.next() {
        Some("x") | Some("X") | Some("1") => Player::P1,
        Some("o") | Some("O") | Some("2") => Player::P2,
        Some(other) => {
            return Err(GameError::bad_position(
                fen,
                format!("side to move must be x or o, not '{other}'"),
            ));
        }
        None => return Err(GameError::bad_position(fen, "side to move missing")),
    };
    if parts.next().is_some() {
        return Err(GameError::bad_position(fen, "trailing fields"));
    }
    Ok((board, side))
}

/// Parses the rows of a FEN-like board ("x", "o", digits for runs of empty
/// cells, rows top first separated by '/') into a grid of cells,
/// `grid[row_from_top][file]`.
pub fn parse_grid(
    fen: &str,
    board: &str,
    width: usize,
    height: usize,
) -> Result<Vec<Vec<Option<Player>>>, GameError> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != height {
        return Err(GameError::bad_position(
            fen,
            format!("expected {height} rows, found {}", rows.len()),
        ));
    }
    let mut grid = Vec::with_capacity(height);
    for row in rows {
        let mut cells = Vec::with_capacity(width);
        let mut run = 0usize;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                // Saturate: a long digit run must not overflow or make the
                // row allocate a huge number of cells below.
                run = run.saturating_mul(10).saturating_add(d as usize);
                if cells.len().saturating_add(run) > width {
                    return Err(GameError::bad_position(
                        fen,
                        format!("row '{row}' has more than {width} cells"),
                    ));
                }
                continue;
            }
            cells.extend(std::iter::repeat_n(None, run));
            run = 0;
            match ch {
                'x' | 'X' => cells.push(Some(Player::P1)),
                'o' | 'O' => cells.push(Some(Player::P2)),
                _ => {
                    return Err(GameError::bad_position(
                        fen,
                        format!("bad character '{ch}'"),
                    ));
                }
            }
            if cells.len() > width {
                break;
            }
        }
        cells.extend(std::iter::repeat_n(None, run));
        if cells.len() != width {
            return Err(GameError::bad_position(
                fen,
                format!("row '{row}' does not have {width} cells"),
            ));
        }
        grid.push(cells);
    }
    Ok(grid)
}

/// The grid (`grid[row_from_top][file]`) of a `width` x `height` board
/// whose cells `cell(row_from_top, file)` reads.
pub fn grid_of(
    width: usize,
    height: usize,
    cell: impl Fn(usize, usize) -> Option<Player>,
) -> Vec<Vec<Option<Player>>> {
    (0..height)
        .map(|row| (0..width).map(|file| cell(row, file)).collect())
        .collect()
}

/// The owner of a cell given whether each side's pieces cover it.
pub fn owner(p1: bool, p2: bool) -> Option<Player> {
    if p1 {
        Some(Player::P1)
    } else if p2 {
        Some(Player::P2)
    } else {
        None
    }
}

/// Writes a grid (`grid[row_from_top][file]`) and side to move as FEN.
pub fn format_grid(grid: &[Vec<Option<Player>>], side: Player) -> String {
    let mut out = String::new();
    for (i, row) in grid.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        let mut run = 0;
        for cell in row {
            match cell {
                None => run += 1,
                Some(p) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(if *p == Player::P1 { 'x' } else { 'o' });
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
    }
    out.push(' ');
    out.push(if side == Player::P1 { 'x' } else { 'o' });
    out
}

/// Draws a grid with file letters below and rank numbers on the left.
pub fn render_grid(grid: &[Vec<Option<Player>>], files: &str) -> String {
    let height = grid.len();
    let mut out = String::new();
    for (i, row) in grid.iter().enumerate() {
        out.push_str(&format!("{:>2} ", height - i));
        for cell in row {
            out.push_str(match cell {
                None => " .",
                Some(Player::P1) => " X",
                Some(Player::P2) => " O",
            });
        }
        out.push('\n');
    }
    out.push_str("   ");
    for ch in files.chars() {
        out.push(' ');
        out.push(ch);
    }
    out.push('\n');
    out
}

/// The board size `settings` ask of a game with sizes but no rules (its
/// default when none is given); a rule is refused. The game checks the
/// size against its own limits.
pub fn size_without_rules(
    description: &Description,
    settings: &Settings,
) -> Result<(usize, usize), GameError> {
    if let Some(rule) = &settings.rule {
        return Err(GameError::Unsupported(format!(
            "{} has no rule variants (got '{rule}')",
            description.name
        )));
    }
    Ok(settings.size.unwrap_or(description.boards.default_size()))
}

/// `Ok` only for the default settings: the `start`/`from_fen` guard of a
/// game without board sizes or rules.
pub fn settings_must_be_default(name: &str, settings: &Settings) -> Result<(), GameError> {
    if settings.size.is_some() {
        return Err(GameError::Unsupported(format!(
            "{name} has a fixed board size"
        )));
    }
    if settings.rule.is_some() {
        return Err(GameError::Unsupported(format!(
            "{name} has no rule variants"
        )));
    }
    Ok(())
}
