//! Running code generic over a game's Rust type when only its name and
//! settings are known: the registry picks the type once, and a
//! [`GameVisitor`] runs monomorphized for it.

use super::description::Description;
use super::{Game, GameError, Settings};

/// Code generic over the game type, chosen at run time by the registry.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with `G`, the type that plays `settings`.
    fn visit<G: Game>(self, settings: &Settings) -> Self::Output;
}

/// A game as the registry lists it. Most games are one Rust type (every
/// [`Game`] is a family of one); a game may instead pick its type from the
/// settings, as Breakthrough picks the narrowest bit set for the board.
pub trait Family {
    /// The game's description.
    const DESCRIPTION: &'static Description;

    /// Runs `visitor` on the type that plays `settings`.
    fn visit<V: GameVisitor>(settings: &Settings, visitor: V) -> Result<V::Output, GameError>;
}

impl<G: Game> Family for G {
    const DESCRIPTION: &'static Description = G::DESCRIPTION;

    fn visit<V: GameVisitor>(settings: &Settings, visitor: V) -> Result<V::Output, GameError> {
        Ok(visitor.visit::<G>(settings))
    }
}
