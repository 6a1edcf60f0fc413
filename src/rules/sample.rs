//! Seeded random legal games (feature `testing`), for benchmarks and the
//! scoresheet generator: the same seed gives the same game on every run.

use super::position::{Game, Move, Status};
use super::ruleset::PlayRules;

/// Random legal moves from `seed` (a xorshift generator) until `plies` are
/// played or the game ends; the moves and the game they leave.
pub fn random_game(rules: PlayRules, seed: u64, plies: usize) -> (Vec<Move>, Game) {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut game = Game::new(rules);
    let mut moves = Vec::with_capacity(plies);
    while moves.len() < plies && game.status() == Status::Ongoing {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mv = legal[(state % legal.len() as u64) as usize];
        game.play(mv);
        moves.push(mv);
    }
    (moves, game)
}

/// A legal game of exactly `plies` plies, still going at its end: the
/// first seed from `seed` on whose random game lasts that long.
pub fn lasting_game(rules: PlayRules, seed: u64, plies: usize) -> Vec<Move> {
    (seed..)
        .map(|s| random_game(rules, s.wrapping_add(1), plies))
        .find(|(m, g)| m.len() == plies && g.status() == Status::Ongoing)
        .map(|(m, _)| m)
        .unwrap_or_default()
}
