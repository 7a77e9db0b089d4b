//! The games Ply plays, by name: the one place that lists them. Adding a
//! game is its own folder under `src/game` and one line in `games!` here.

use super::session::{GameSession, Session};
use crate::game::blackwhite::BlackWhite;
use crate::game::breakthrough;
use crate::game::connect4;
use crate::game::gomoku::Gomoku;
use crate::game::lasca::Lasca;
use crate::game::tictactoe::TicTacToe;
use crate::game::{Description, Family, Game, GameVisitor, Settings};
use crate::search::SearchParams;

/// Lists the registered games once: their descriptions in order, and the
/// dispatch from a name to the Rust type that plays it.
macro_rules! games {
    ($($family:ty),+ $(,)?) => {
        /// Every game's description, in the order `--help` lists them.
        pub const GAMES: &[&Description] = &[$(<$family as Family>::DESCRIPTION),+];

        fn dispatch<V: GameVisitor>(
            name: &str,
            settings: &Settings,
            visitor: V,
        ) -> Result<V::Output, String> {
            $(
                if name.eq_ignore_ascii_case(<$family as Family>::DESCRIPTION.name) {
                    return <$family as Family>::visit(settings, visitor)
                        .map_err(|e| e.to_string());
                }
            )+
            Err(unknown(name))
        }
    };
}

games!(
    Gomoku,
    connect4::AnyBoard,
    TicTacToe,
    Lasca,
    BlackWhite,
    breakthrough::AnyBoard,
);

pub const DEFAULT_GAME: &str = GAMES[0].name;

fn unknown(name: &str) -> String {
    format!("unknown game '{name}' (known: {})", names().join(", "))
}

/// The registered games' names.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|d| d.name).collect()
}

/// The description of the game called `name` (any case).
pub fn describe(name: &str) -> Result<&'static Description, String> {
    GAMES
        .iter()
        .copied()
        .find(|d| d.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| unknown(name))
}

/// Runs `visitor` generic over the Rust type that plays `game` with
/// `settings`: how tools reach game-specific code without widening
/// [`Session`].
pub fn visit<V: GameVisitor>(
    game: &str,
    settings: &Settings,
    visitor: V,
) -> Result<V::Output, String> {
    dispatch(game, settings, visitor)
}

/// A session for `game` at its start position.
pub fn create(
    game: &str,
    settings: &Settings,
    hash_mb: usize,
    params: SearchParams,
) -> Result<Box<dyn Session>, String> {
    struct NewSession {
        hash_mb: usize,
        params: SearchParams,
    }
    impl GameVisitor for NewSession {
        type Output = Result<Box<dyn Session>, String>;
        fn visit<G: Game>(self, settings: &Settings) -> Self::Output {
            let session = GameSession::<G>::new(settings.clone(), self.hash_mb, self.params)?;
            Ok(Box::new(session))
        }
    }
    dispatch(game, settings, NewSession { hash_mb, params })?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_found_by_its_description() {
        for d in GAMES {
            assert_eq!(describe(&d.name.to_uppercase()).unwrap(), *d);
            let session = create(d.name, &Settings::default(), 1, SearchParams::default())
                .unwrap_or_else(|e| panic!("{}: {e}", d.name));
            assert_eq!(session.game(), d.name);
        }
        assert!(
            describe("chess")
                .unwrap_err()
                .contains("unknown game 'chess'")
        );
        assert!(create("chess", &Settings::default(), 1, SearchParams::default()).is_err());
    }

    #[test]
    fn descriptions_match_the_games() {
        use crate::game::gomoku::Rule;
        let gomoku = describe("gomoku").unwrap();
        let rules: Vec<&str> = Rule::ALL.iter().map(|r| r.name()).collect();
        assert_eq!(gomoku.rules, rules.as_slice());
        for d in GAMES {
            // The default board is what the start position is played on,
            // and every bench line is legal.
            let settings = Settings::default();
            let mut session = create(d.name, &settings, 1, SearchParams::default()).unwrap();
            for (moves, _) in d.bench {
                let moves: Vec<&str> = moves.split_whitespace().collect();
                session
                    .set_position(None, &moves)
                    .unwrap_or_else(|e| panic!("{} bench line: {e}", d.name));
            }
            for rule in d.rules {
                let s = Settings {
                    rule: Some(rule.to_string()),
                    ..Settings::default()
                };
                assert!(create(d.name, &s, 1, SearchParams::default()).is_ok());
            }
        }
    }
}
