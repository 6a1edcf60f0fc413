//! Legal moves, the end of the game, and `perft`.
//!
//! One move is a whole turn: a placement, step or fly together with its
//! shot, so a line-forming move with five possible targets is five moves.
//! `perft` counts the last ply without playing it: the moves of a placement
//! are the empty junctions, plus, for each junction that completes a line,
//! one extra move per shot target beyond the first. While both sides are
//! placing it counts the last two plies in closed form (see
//! `count_after_quiet_placements`). That and copying small positions are
//! what make depth 7 (about 1.9e9 move paths) take a fraction of a second.

use super::board::{
    completes_line, completing_squares, protected, Bits, Junction, Side, Squares, ALL,
};
use super::position::{Arrangement, Move, Position, Status, WinReason};
use super::ruleset::PlayRules;

/// Whether the game is over for a reason other than the side to move being
/// blocked: two cows left (OGR 4.2.3) or the ten-move draw (OGR 4.3.2).
#[inline]
fn over_unless_blocked(pos: &Position, rules: &PlayRules) -> bool {
    let dark = pos.total(Side::Dark);
    let light = pos.total(Side::Light);
    dark <= rules.lose_at
        || light <= rules.lose_at
        || (dark.min(light) <= rules.fly_at && pos.since_shot() >= rules.draw_plies as u32)
}

/// How the game stands. A result on the board comes first: two cows left,
/// then a blocked player to move, and only then the ten-move draw.
/// Spent arrangements play no part: they take away shots, never moves.
pub fn status(pos: &Position, rules: &PlayRules) -> Status {
    let side = pos.side();
    for loser in [side, side.other()] {
        if pos.total(loser) <= rules.lose_at {
            return Status::Won {
                winner: loser.other(),
                reason: WinReason::TwoCows,
            };
        }
    }
    if !has_move(pos, rules) {
        return Status::Won {
            winner: side.other(),
            reason: WinReason::Blocked,
        };
    }
    let least = pos.total(Side::Dark).min(pos.total(Side::Light));
    if least <= rules.fly_at && pos.since_shot() >= rules.draw_plies as u32 {
        return Status::Drawn;
    }
    Status::Ongoing
}

/// Calls `f(from, to)` for every way the side to move may bring a cow to a
/// junction, before the GAR no-return rule and before shots.
#[inline]
fn for_each_action(
    pos: &Position,
    rules: &PlayRules,
    mut f: impl FnMut(Option<Junction>, Junction),
) {
    let side = pos.side();
    let empty = ALL & !pos.occupied();
    let mine = pos.cows(side);
    if pos.in_hand(side) > 0 {
        for to in Squares(empty) {
            f(None, to);
        }
    } else if pos.flies(rules, side) {
        for from in Squares(mine) {
            for to in Squares(empty) {
                f(Some(from), to);
            }
        }
    } else {
        for from in Squares(mine) {
            for to in Squares(from.neighbours() & empty) {
                f(Some(from), to);
            }
        }
    }
}

/// Whether the side to move has at least one legal move (ignoring the end
/// of the game): a player without one is blocked (OGR 4.2.2).
pub fn has_move(pos: &Position, rules: &PlayRules) -> bool {
    let side = pos.side();
    let empty = ALL & !pos.occupied();
    let mine = pos.cows(side);
    if empty == 0 || mine == 0 && pos.in_hand(side) == 0 {
        return false;
    }
    if pos.in_hand(side) > 0 {
        return true;
    }
    // Count moves up to two: one move may be a forbidden return (GAR).
    let mut seen = 0;
    let mut only = (Junction::new(0), Junction::new(0));
    if pos.flies(rules, side) {
        seen = mine.count_ones() * empty.count_ones();
        if seen == 1 {
            only = (Squares(mine).next(), Squares(empty).next());
        }
    } else {
        for from in Squares(mine) {
            let to = from.neighbours() & empty;
            if to != 0 {
                seen += to.count_ones();
                only = (Some(from), Squares(to).next());
                if seen > 1 {
                    return true;
                }
            }
        }
    }
    match (seen, only) {
        (0, _) => false,
        (1, (Some(from), Some(to))) => {
            !is_forbidden_return(pos.forbidden_return(side), mine, Some(from), to)
        }
        _ => true,
    }
}

/// The GAR no-return rule: going straight back to the junction a cow left
/// when it broke a line to form another, if the return forms a line.
#[inline]
fn is_forbidden_return(
    forbidden: Option<(Junction, Junction)>,
    mine: Bits,
    from: Option<Junction>,
    to: Junction,
) -> bool {
    match (forbidden, from) {
        (Some((b, a)), Some(from)) if from == b && to == a => {
            completes_line(mine & !from.bit() | to.bit(), to)
        }
        _ => false,
    }
}

/// Whether bringing a cow from `from` to `to` completes a line that may
/// still shoot (fresh under `official`, any line under `gar`).
#[inline]
fn shoots(
    pos: &Position,
    rules: &PlayRules,
    spent: &[Arrangement],
    mine: Bits,
    from: Option<Junction>,
    to: Junction,
) -> bool {
    let after = match from {
        Some(from) => mine & !from.bit() | to.bit(),
        None => mine | to.bit(),
    };
    if !completes_line(after, to) {
        return false;
    }
    if !rules.spent_arrangements || from.is_none() || spent.is_empty() {
        // A newly placed cow has never stood in any arrangement.
        return true;
    }
    let cow = from.and_then(|f| pos.cow_at(f)).unwrap_or(0);
    pos.formed(rules, spent, from, to, cow).any_fresh()
}

/// Appends the legal moves of the side to move to `out`; none once the
/// game is over.
pub fn legal_moves(pos: &Position, rules: &PlayRules, spent: &[Arrangement], out: &mut Vec<Move>) {
    if over_unless_blocked(pos, rules) {
        return;
    }
    let side = pos.side();
    let mine = pos.cows(side);
    let forbidden = pos.forbidden_return(side);
    let targets = pos.targets(rules);
    for_each_action(pos, rules, |from, to| {
        if is_forbidden_return(forbidden, mine, from, to) {
            return;
        }
        let mv = Move {
            from,
            to,
            shot: None,
        };
        if targets != 0 && shoots(pos, rules, spent, mine, from, to) {
            out.extend(Squares(targets).map(|t| mv.shooting(t)));
        } else {
            out.push(mv);
        }
    });
}

/// The number of legal moves, without listing them.
pub fn count_moves(pos: &Position, rules: &PlayRules, spent: &[Arrangement]) -> u64 {
    if over_unless_blocked(pos, rules) {
        return 0;
    }
    let side = pos.side();
    let mine = pos.cows(side);
    let empty = ALL & !pos.occupied();
    if pos.in_hand(side) > 0 {
        let completing = completing_squares(mine, empty);
        let mut n = empty.count_ones() as u64;
        if completing != 0 {
            let targets = pos.targets(rules).count_ones() as u64;
            if targets > 1 {
                n += completing.count_ones() as u64 * (targets - 1);
            }
        }
        return n;
    }
    let forbidden = pos.forbidden_return(side);
    let targets = (pos.targets(rules).count_ones() as u64).max(1);
    let mut n = 0;
    for_each_action(pos, rules, |from, to| {
        if is_forbidden_return(forbidden, mine, from, to) {
            return;
        }
        n += if shoots(pos, rules, spent, mine, from, to) {
            targets
        } else {
            1
        };
    });
    n
}

/// The number of move paths of `depth` plies from the position (a finished
/// game has no moves), the standard self-test of a move generator.
pub fn perft(pos: &Position, rules: &PlayRules, spent: &[Arrangement], depth: u32) -> u64 {
    let mut spent = spent.to_vec();
    let mut buffers = vec![Vec::new(); depth as usize + 1];
    perft_inner(pos, rules, &mut spent, depth, &mut buffers)
}

/// The sum, over every placement on a junction of `quiet` (one that
/// completes no line), of the opponent's number of moves after it, when the
/// opponent places too; computed without playing the placements.
///
/// After a quiet placement on `to` the opponent's lines to complete are its
/// present ones less `to`, and its targets are the mover's loose cows plus
/// the new cow (which stands in no line). So each child's count is
/// `(empty - 1) + |completing - to| * (targets - 1)`, and the sum over `to`
/// has a closed form.
#[inline]
fn count_after_quiet_placements(
    pos: &Position,
    rules: &PlayRules,
    empty: Bits,
    quiet: Bits,
) -> u64 {
    let n = quiet.count_ones() as u64;
    if n == 0 {
        return 0;
    }
    // The child is one ply further from the last shot: the draw may end it.
    let least = pos.total(Side::Dark).min(pos.total(Side::Light));
    if least <= rules.fly_at && pos.since_shot() + 1 >= rules.draw_plies as u32 {
        return 0;
    }
    let side = pos.side();
    let mine = pos.cows(side);
    let theirs = pos.cows(side.other());
    let their_completing = completing_squares(theirs, empty);
    let targets = (mine & !protected(mine)).count_ones() as u64 + 1;
    let empty_after = empty.count_ones() as u64 - 1;
    let completing_sum =
        n * their_completing.count_ones() as u64 - (their_completing & quiet).count_ones() as u64;
    n * empty_after + completing_sum * (targets - 1)
}

fn perft_inner(
    pos: &Position,
    rules: &PlayRules,
    spent: &mut Vec<Arrangement>,
    depth: u32,
    buffers: &mut [Vec<Move>],
) -> u64 {
    match depth {
        0 => return 1,
        1 => return count_moves(pos, rules, spent),
        _ => {}
    }
    if over_unless_blocked(pos, rules) {
        return 0;
    }
    let side = pos.side();
    let mut total = 0;
    if pos.in_hand(side) > 0 {
        // Placement, the stage perft from the empty board lives in: walk
        // the empty junctions directly, and take the slow road only for the
        // few that complete a line.
        let empty = ALL & !pos.occupied();
        let completing = completing_squares(pos.cows(side), empty);
        let quiet = empty & !completing;
        if depth == 2 && pos.in_hand(side.other()) > 0 {
            total += count_after_quiet_placements(pos, rules, empty, quiet);
        } else {
            for to in Squares(quiet) {
                let mut child = *pos;
                child.place_quietly(to);
                total += perft_inner(&child, rules, spent, depth - 1, buffers);
            }
        }
        if completing != 0 {
            let targets = pos.targets(rules);
            let cow = pos.next_cow(side).unwrap_or(0);
            for to in Squares(completing) {
                let shots: &mut dyn Iterator<Item = Option<Junction>> = if targets == 0 {
                    &mut std::iter::once(None)
                } else {
                    &mut Squares(targets).map(Some)
                };
                for shot in shots {
                    let mut child = *pos;
                    let mark = spent.len();
                    child.play(
                        rules,
                        spent,
                        Move {
                            from: None,
                            to,
                            shot,
                        },
                        cow,
                        None,
                    );
                    total += perft_inner(&child, rules, spent, depth - 1, buffers);
                    spent.truncate(mark);
                }
            }
        }
        return total;
    }
    let (mine, rest) = buffers.split_first_mut().expect("one buffer per ply");
    mine.clear();
    legal_moves(pos, rules, spent, mine);
    for &mv in mine.iter() {
        let mut child = *pos;
        let mark = spent.len();
        child.play(rules, spent, mv, 0, None);
        total += perft_inner(&child, rules, spent, depth - 1, rest);
        spent.truncate(mark);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Game;
    use crate::rules::RuleSet;

    #[test]
    fn perft_shallow_matches_reference_counts() {
        for rules in RuleSet::ALL.iter().map(|r| r.play()) {
            let game = Game::new(rules);
            let counts: Vec<u64> = (1..=4)
                .map(|d| perft(&game.position, &rules, &game.spent, d))
                .collect();
            assert_eq!(counts, [24, 552, 12144, 255024], "{}", rules.name);
        }
    }

    /// Perft the plain way: list the moves, play each one.
    fn naive_perft(game: &Game, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        game.legal_moves()
            .into_iter()
            .map(|mv| {
                let mut child = game.clone();
                child.play(mv);
                naive_perft(&child, depth - 1)
            })
            .sum()
    }

    #[test]
    fn fast_perft_agrees_with_plain_perft_along_random_games() {
        for rules in RuleSet::ALL.iter().map(|r| r.play()) {
            let mut seed = 0x1234_5678_9abc_def1_u64;
            for _ in 0..6 {
                let mut game = Game::new(rules);
                for ply in 0..60 {
                    if ply % 7 == 3 {
                        let fast = perft(&game.position, &rules, &game.spent, 3);
                        assert_eq!(fast, naive_perft(&game, 3), "{} ply {ply}", rules.name);
                    }
                    let moves = game.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    game.play(moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
    }

    #[test]
    fn counting_agrees_with_listing() {
        // Walk a few hundred random-ish games and compare the bulk count
        // with the length of the move list at every position.
        for rules in RuleSet::ALL.iter().map(|r| r.play()) {
            let mut seed = 0x9e37_79b9_u64;
            for _ in 0..40 {
                let mut game = Game::new(rules);
                for _ in 0..200 {
                    let moves = game.legal_moves();
                    assert_eq!(
                        moves.len() as u64,
                        count_moves(&game.position, &rules, &game.spent),
                        "{}",
                        rules.name
                    );
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    game.play(moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
    }
}
