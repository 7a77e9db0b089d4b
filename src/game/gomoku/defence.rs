//! Defence against the opponent's continuous fours: if the side to move
//! passed and the opponent then had a VCF, the moves that may save the game
//! are the side to move's own fours (a counter-attack that gains the tempo)
//! and the cells of the VCF proof (the attacker's fours, the five-points the
//! defender must take): a stone anywhere else leaves every four of the proof
//! a four and every forced reply forced, unless it turns one of those
//! replies into a four of the defender's own (which the attacker must
//! answer): such cells are kept too, found by re-reading each reply cell
//! with the stone added. That is still not exact (a reply that gains a four
//! only with the attacker's later stones out of the way, a proof cut short
//! by the walk's limit), so the search tries the other moves too whenever
//! all of these lose.

use super::patterns::Threat;
use super::rules::EMPTY;
use super::threats::{FOURS, Vcf, makes_four};
use super::{CellSet, Gomoku, bits, color_of};
use crate::game::Game;

/// Proof nodes the walk over the opponent's VCF visits at most (the proofs
/// the tree's budgets find are far smaller).
const MAX_WALK: usize = 512;

impl Gomoku {
    /// The side to move's moves against the opponent's VCF after a pass,
    /// the proof searched with `effort` attacker moves (see the module).
    /// False, nothing appended, when the opponent has no such VCF, in caro
    /// (its fives may be blocked at the far end), or where seek-the-must
    /// move generation already answers a threat (a five, an open four or a
    /// four-three the opponent can make next move).
    pub(super) fn vcf_defences(&mut self, effort: u64, out: &mut Vec<u16>) -> bool {
        let me = color_of(self.side);
        let them = 3 - me;
        if self.rule.is_caro()
            || self.stones < 4
            || !self.has_four_cells(them)
            || self.threats(them, Threat::Five)
                + self.threats(them, Threat::OpenFour)
                + self.threats(them, Threat::FourThree)
                > 0
        {
            return false;
        }
        self.make_null_move();
        let mut marked: CellSet = [0; super::CELLS / 64];
        let mut replies: CellSet = [0; super::CELLS / 64];
        let mut walked = 0;
        let found = matches!(self.vcf_quick(effort), Vcf::Win(..))
            && self.mark_vcf(effort, &mut marked, &mut replies, &mut walked);
        self.unmake_null_move();
        if !found {
            return false;
        }
        // The cells that would make one of our forced replies a four.
        for r in bits(&replies) {
            for &dir in &self.dirs {
                for k in (-4..=4isize).filter(|&k| k != 0) {
                    let c = (r as isize + k * dir) as usize;
                    if self.cells[c] == EMPTY && makes_four(self.threat_after(me, r, me, c)) {
                        marked[c / 64] |= 1 << (c % 64);
                    }
                }
            }
        }
        // And our own fours; all by increasing index.
        let words = self.size.div_ceil(64);
        for (w, word) in marked.iter_mut().enumerate().take(words) {
            *word |= self.threat_word(me, FOURS, w);
        }
        let start = out.len();
        out.extend(
            bits(&marked[..words])
                .filter(|&i| self.legal_for(i, me))
                .map(|i| i as u16),
        );
        out.len() > start
    }

    /// Marks the cells of the side to move's VCF proof (it has one):
    /// its fours, and the five-points each four leaves (also in
    /// `replies`), every reply followed. False if the proof could not be walked within the limits.
    fn mark_vcf(
        &mut self,
        effort: u64,
        marked: &mut CellSet,
        replies: &mut CellSet,
        walked: &mut usize,
    ) -> bool {
        let mark = |set: &mut CellSet, i: usize| set[i / 64] |= 1 << (i % 64);
        let me = color_of(self.side);
        let them = 3 - me;
        let (fives, n) = self.fives(me);
        if n > 0 {
            mark(marked, fives[0] as usize);
            return true;
        }
        *walked += 1;
        if *walked > MAX_WALK {
            return false;
        }
        let Vcf::Win(mv, _) = self.vcf_quick(effort) else {
            return false;
        };
        mark(marked, mv as usize);
        self.make_move(mv);
        let (points, n) = self.fives_through(mv as usize, me);
        let mut complete = true;
        for &p in &points[..n] {
            mark(marked, p as usize);
            mark(replies, p as usize);
        }
        for &p in &points[..n] {
            if complete && self.legal_for(p as usize, them) {
                self.make_move(p);
                complete =
                    self.outcome().is_some() || self.mark_vcf(effort, marked, replies, walked);
                self.unmake_move(p);
            }
        }
        self.unmake_move(mv);
        complete
    }
}
