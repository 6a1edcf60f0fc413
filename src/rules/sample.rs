//! Seeded random legal games (feature `testing`), for benchmarks and the
//! scoresheet generator: the same seed gives the same game on every run.

use super::position::{Game, Move, Status};
use super::ruleset::PlayRules;

/// A legal game of exactly `plies` plies, still going at its end: random
/// moves from a xorshift generator, the first seed from `seed` on whose
/// game lasts that long.
pub fn lasting_game(rules: PlayRules, seed: u64, plies: usize) -> Vec<Move> {
    for s in seed.. {
        let mut state = s.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
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
        if moves.len() == plies && game.status() == Status::Ongoing {
            return moves;
        }
    }
    unreachable!("some seed gives a game that lasts")
}
