//! The quality criteria of C.04.3 (the text applied from 1 July 2025)
//! that apply without colours, C6-C9 and C14-C21, and Kraal's `gar`
//! club-mates preference, as digits of one matching weight per pair. Each
//! criterion has its functions below, named by its number, with the article
//! it implements: one sizes its digit for a bracket, one gives a pair's
//! value in it (the table on [`Weights`] lists both). C8 is settled by a
//! matching over two brackets (see `following_bracket`), C5 and C4 by what
//! may meet the bye seat and by completion (see `bye`, `completion`).

use super::absolute::Engine;
use super::brackets::Seat;
use super::LOW_CAP;
use crate::pairing::explain::FloatDirection;
use crate::pairing::matching::{Digits, Widest};
use crate::pairing::Points;

/// The weight of a pair inside one bracket: the quality criteria as digits
/// of one integer, most significant first, so that a maximum-weight
/// matching is the best pairing by the criteria in the handbook's order.
///
/// | digit | criterion | sized by | per pair |
/// |---|---|---|---|
/// | `shift_pairs` | C6, most pairs | `c6_digit_bits` | 1 (`c6_pairs`) |
/// | `shift_scores` | C7, downfloaters' scores from the highest | [`score_places`] | the score's place value per player paired (`c7_scores_paired`) |
/// | `shift_low` | (completion re-solves only) score differences below | `lower_brackets_digit_bits` | capped difference |
/// | `shift_gar` | `gar` club or team mates apart in rounds 1-3 | `gar_digit_bits` | 1 if not mates (`gar_mates_apart`) |
/// | `c9` | C9, unplayed games of the bye's player | `c9_digit` | unplayed games of the players paired (`c9_unplayed_games`) |
/// | `shift_float` | C14-C17, repeated floats | `c14_c17_floats`, `c14_c17_digit_bits` | `c14_c16_repeated_downfloat`, `c15_c17_repeated_upfloat` |
/// | `sd` | C18-C21, their scores and score differences | `c18_c21_digits` | `c18_c20_repeated_downfloaters_scores`, `c19_c21_repeated_upfloat_differences` |
/// | `shift_order` | not a criterion: the ideal S1/S2 pairing | `s1_s2_ideal`, `order_digit_bits` | how close the pair is to it (`order_hint`) |
///
/// A digit is left out when nobody in the bracket could make it differ.
/// The weight is as wide as its digits: callers pick the integer type by
/// `bits` (see `matching::with_width`).
#[derive(Clone)]
pub(super) struct Weights<'e, 'a> {
    pub(super) engine: &'e Engine<'a>,
    pub(super) bracket: Vec<usize>,
    /// Digits: (shift, value function) built once per bracket.
    pub(super) shift_pairs: u32,
    pub(super) shift_scores: u32,
    pub(super) shift_gar: Option<u32>,
    /// C9, when this bracket floats exactly one player and that player
    /// gets the bye: (shift, bye score).
    pub(super) c9: Option<(u32, Points)>,
    pub(super) shift_low: Option<u32>,
    pub(super) shift_float: [Option<u32>; 4],
    /// C18-C21, in the order of `shift_float`.
    pub(super) sd: [Option<SdDigit>; 4],
    pub(super) shift_order: Option<u32>,
    /// Lowest bit of the criteria digits (everything above the order digit).
    pub(super) shift_quality: u32,
    pub(super) order_weighted: bool,
    /// C7's place value of each score in `ranks`, as a power of two (see
    /// `build`).
    pub(super) place: Vec<u32>,
    pub(super) ranks: Vec<Points>,
    pub(super) ideal: Vec<Option<usize>>,
    pub(super) movers: usize,
    /// Whether two moved-down players may meet here: only as the last
    /// resort of completion (C4), when no candidate of the bracket leaves
    /// the players below pairable.
    pub(super) mdp_pairs_allowed: bool,
    /// Bits used by all quality digits together.
    pub(super) bits: u32,
    /// What did not fit the digits, if anything (see
    /// [`Engine::shortcut`]): it matters only where the weights decide.
    pub(super) narrowed: Option<String>,
}

/// The float criteria in the handbook's order: C14 (C18) downfloat and
/// C15 (C19) upfloat in the previous round, C16 (C20) and C17 (C21) two
/// rounds before; `true` = the previous round.
pub(super) const FLOAT_DIGITS: [(FloatDirection, bool); 4] = [
    (FloatDirection::Down, true),
    (FloatDirection::Up, true),
    (FloatDirection::Down, false),
    (FloatDirection::Up, false),
];

/// One of C18-C21: a list of scores or score differences compared from the
/// highest, as sums of place values that no number of smaller values can
/// outweigh.
#[derive(Debug, Clone, Default)]
pub(super) struct SdDigit {
    pub(super) shift: u32,
    /// Place value of each value in `ranks`, as a power of two.
    pub(super) place: Vec<u32>,
    pub(super) ranks: Vec<Points>,
    pub(super) bits: u32,
}

pub(super) fn bits_for(max_total: i128) -> u32 {
    128 - (max_total.max(1)).leading_zeros()
}

/// Place values for a list of values compared from the highest: each a
/// power of two (its exponent returned) above the most that all smaller
/// values can add up to, given how many players can carry each value
/// (`count`). Returns the exponents and the bits of the whole digit.
pub(super) fn places(count: impl Iterator<Item = usize>) -> (Vec<u32>, u32) {
    let mut place = Vec::new();
    let mut top = 0u32;
    for c in count {
        place.push(top);
        top += bits_for(c as i128);
    }
    (place, top)
}

/// C7 (C.04.3, 2025) ranks the scores of the bracket's players: the lower
/// a score's rank, the less it costs to leave a player with it unpaired.
/// The place value of each score is a power of two above what all the
/// players of lower scores add up to, so no number of lower-scored players
/// outweighs one of a higher score, and the digit takes only the bits
/// those counts need (the weight is as wide as it must be). Returns the
/// distinct scores of `scores` (ascending), their place values
/// ([`places`], by how many players have each) and the digit's bits.
pub(super) fn score_places(mut scores: Vec<Points>) -> (Vec<Points>, Vec<u32>, u32) {
    scores.sort_unstable();
    let mut ranks = scores.clone();
    ranks.dedup();
    let (place, bits) = places(
        ranks
            .iter()
            .map(|&r| scores.iter().filter(|&&x| x == r).count()),
    );
    (ranks, place, bits)
}

/// The bits a weight may take: 4,096 less the solver's headroom and the
/// digits callers stack above the criteria.
const CRITERIA_LIMIT: u32 = Widest::BITS - 90;

/// The ideal S1/S2 pairing of the bracket (Articles 3.2, 3.3 and 4.2), for
/// the order digit: not a criterion, but the first candidate the handbook
/// generates, so that the first guess of the generation order is usually
/// right. Moved-down players first meet the top residents, the rest split
/// in halves. Returns how many players moved down, and each position's
/// ideal partner.
fn s1_s2_ideal(seats: &[Seat], bracket: &[usize], low: Points) -> (usize, Vec<Option<usize>>) {
    let k = bracket.len();
    let mut movers = bracket
        .iter()
        .take_while(|&&i| seats[i].score > low)
        .count();
    let residents = k - movers;
    let mut ideal = vec![None; k];
    if residents == 1 && seats[bracket[k - 1]].is_bye {
        // The bye seat's bracket: the players left over meet each other
        // in S1/S2 order and the last of them takes the bye.
        movers = 0;
        ideal[k - 2] = Some(k - 1);
        ideal[k - 1] = Some(k - 2);
        let half = (k - 2) / 2;
        for i in 0..half {
            ideal[i] = Some(half + i);
            ideal[half + i] = Some(i);
        }
    } else {
        let m1 = movers.min(residents);
        for i in 0..m1 {
            ideal[i] = Some(movers + i);
            ideal[movers + i] = Some(i);
        }
        let rem_start = movers + m1;
        let rem = k - rem_start;
        let half = rem / 2;
        for i in 0..half {
            ideal[rem_start + i] = Some(rem_start + half + i);
            ideal[rem_start + half + i] = Some(rem_start + i);
        }
    }
    (movers, ideal)
}

/// Most pairs a bracket of `k` players can hold, plus one: the bound the
/// per-pair digits are sized by, since a digit's sum over a pairing must
/// not carry into the digit above.
fn pairs_max(k: usize) -> i128 {
    k as i128 / 2 + 1
}

/// C6 (C.04.3, 2025), the most significant quality digit: one per pair,
/// so it needs room for the most pairs the bracket can hold.
fn c6_digit_bits(k: usize) -> u32 {
    bits_for(pairs_max(k))
}

/// Not a handbook criterion: when completion (C4) re-solves a bracket with
/// the players below in view (`span` players in all), their capped score
/// differences sit just below C7 and above club-mates apart: the lower
/// brackets' own criteria rank above the preference there too.
fn lower_brackets_digit_bits(k: usize, span: usize) -> Option<u32> {
    (span > k).then(|| bits_for(LOW_CAP * (span as i128 / 2 + 1)))
}

/// Kraal's `gar` preference (club or team mates apart in rounds 1-3): a
/// digit only where the rule set asks for it, one per pair of the widest
/// matching the bracket joins.
fn gar_digit_bits(engine: &Engine, k: usize, span: usize) -> Option<u32> {
    engine
        .avoid_is_gar_early()
        .then_some(bits_for(span.max(k) as i128 / 2 + 1))
}

/// C9 (C.04.3, 2025): a digit for the unplayed games of the player who
/// gets the pairing-allocated bye, only in a bracket that floats exactly
/// one player who ends up with it: an odd bracket that can pair all but
/// one, at or below the bye's score (C5), so that nobody below may take
/// the bye instead. Without players of the bye's score whose unplayed
/// games differ there is nothing to choose, and no digit. Returns the
/// digit's bits (room for every such player's unplayed games) and the
/// bye's score.
fn c9_digit(engine: &Engine, bracket: &[usize], low: Points) -> Option<(u32, Points)> {
    let seats = engine.seats;
    let may_take_bye = |b: Points| {
        bracket
            .iter()
            .filter(move |&&i| seats[i].score == b && !seats[i].bye_used)
    };
    let score = engine.bye_score.filter(|&b| {
        bracket.len() % 2 == 1
            && low <= b
            && !bracket.iter().any(|&i| seats[i].is_bye)
            && {
                let u: Vec<u32> = may_take_bye(b).map(|&i| seats[i].unplayed).collect();
                u.iter().any(|&x| Some(&x) != u.first())
            }
            && engine.floats_one_when_complete(bracket, low)
    })?;
    let total: i128 = may_take_bye(score)
        .map(|&i| seats[i].unplayed as i128)
        .sum();
    Some((bits_for(total + 1), score))
}

/// C14-C17 (C.04.3, 2025), in the order of [`FLOAT_DIGITS`]: whether anyone
/// in the bracket carries that float from the previous round (two rounds
/// before). Without such a player the criterion cannot tell two pairings
/// apart, and its digit is left out.
fn c14_c17_floats(seats: &[Seat], bracket: &[usize]) -> [bool; 4] {
    FLOAT_DIGITS.map(|(dir, recent)| {
        bracket
            .iter()
            .any(|&i| past(&seats[i], recent) == Some(dir))
    })
}

/// The width of each of the C14-C17 digits: a pair saves at most two
/// repeated floats, summed over the bracket's pairs.
fn c14_c17_digit_bits(k: usize) -> u32 {
    bits_for(2 * pairs_max(k) + 2)
}

/// C18-C21 (C.04.3, 2025): the scores or score differences of repeated
/// floaters, each a list compared from the highest, over the values they
/// can have, with a base above their number. In a homogeneous bracket
/// every downfloater has the same difference and nobody floats up, so
/// C14-C17 already say everything and these digits are left out.
///
/// The weight takes as many bits as the criteria need (see
/// `matching::with_width`); only past thousands of bits, which no bracket
/// of a real event comes near, is a digit left out, and the reason is
/// returned. `fixed` holds the bits taken so far and grows by each digit
/// kept.
fn c18_c21_digits(
    seats: &[Seat],
    bracket: &[usize],
    movers: usize,
    fixed: &mut u32,
) -> ([Option<SdDigit>; 4], Option<String>) {
    let mut sd: [Option<SdDigit>; 4] = Default::default();
    let mut narrowed = None;
    if movers == 0 {
        return (sd, narrowed);
    }
    for (slot, float) in sd.iter_mut().zip(FLOAT_DIGITS) {
        let Some(d) = c18_c21_digit(seats, bracket, float) else {
            continue;
        };
        if *fixed + d.bits <= CRITERIA_LIMIT {
            *fixed += d.bits;
            *slot = Some(d);
        } else {
            narrowed = Some(format!(
                "C18-C21 left out of a bracket of {} players: its digits do not fit",
                bracket.len()
            ));
        }
    }
    (sd, narrowed)
}

/// One of C18-C21 for the players who carry the float `(dir, recent)`:
/// for C18 / C20 the downfloaters' own scores, for C19 / C21 the
/// differences up to the higher scores they may meet. `None` when there
/// is no such value.
fn c18_c21_digit(
    seats: &[Seat],
    bracket: &[usize],
    (dir, recent): (FloatDirection, bool),
) -> Option<SdDigit> {
    let who: Vec<usize> = bracket
        .iter()
        .copied()
        .filter(|&i| !seats[i].is_bye && past(&seats[i], recent) == Some(dir))
        .collect();
    let mut ranks: Vec<Points> = Vec::new();
    for &i in &who {
        let si = seats[i].score;
        if dir == FloatDirection::Down {
            ranks.push(si);
            continue;
        }
        for &j in bracket {
            let sj = seats[j].score;
            if sj > si {
                ranks.push(sj - si);
            }
        }
    }
    ranks.sort_unstable();
    ranks.dedup();
    if ranks.is_empty() {
        return None;
    }
    // Place values: for C18 / C20 (scores) by how many of those players
    // have each score; for C19 / C21 (differences) by how many players
    // there are.
    let (place, top) = places(ranks.iter().map(|&x| {
        if dir == FloatDirection::Down {
            who.iter().filter(|&&i| seats[i].score == x).count()
        } else {
            who.len()
        }
    }));
    // Scores: the paired players' place values sum below the top.
    // Differences: each paired player contributes up to the largest place
    // value.
    let bits = if dir == FloatDirection::Down {
        top
    } else {
        top + bits_for(2 * (bracket.len() as i128 + 1))
    };
    Some(SdDigit {
        shift: 0,
        place,
        ranks,
        bits,
    })
}

/// Not a criterion: the width of the S1/S2 order digit (see
/// `Weights::order_hint`), weighted to settle the moved-down players first
/// when it fits, plain otherwise, and left out when neither fits. It is
/// kept within `limit` (an `i128`'s width for most callers), so that it
/// never makes a weight wider; `fixed` is what the criteria take. Returns
/// the bits and whether the weighted form is used.
fn order_digit_bits(k: usize, movers: usize, fixed: u32, limit: u32) -> (Option<u32>, bool) {
    let k_i = k as i128;
    let weighted = bits_for((2 * k_i * k_i + k_i * k_i * k_i * movers as i128) * pairs_max(k) + 1);
    let plain = bits_for(2 * k_i * pairs_max(k) + 1);
    if fixed + weighted <= limit {
        (Some(weighted), true)
    } else if fixed + plain <= limit {
        (Some(plain), false)
    } else {
        (None, false)
    }
}

/// Digits are laid out from the lowest bit up, so that each one's shift
/// is just the bits already taken and the order of the pushes alone
/// decides which criterion outweighs which.
struct Stack(u32);

impl Stack {
    fn push(&mut self, bits: u32) -> u32 {
        let shift = self.0;
        self.0 += bits;
        shift
    }
}

impl<'e, 'a> Weights<'e, 'a> {
    pub(super) fn new(engine: &'e Engine<'a>, bracket: &[usize], limit: u32, span: usize) -> Self {
        Self::build(engine, bracket, limit, span)
    }

    /// Weights of a next bracket as C8 sees it: every player of the bracket
    /// above followed by the next bracket's residents.
    pub(super) fn for_next(engine: &'e Engine<'a>, both: &[usize]) -> Self {
        Self::build(engine, both, 118, both.len())
    }

    /// Each criterion's digit sized by its own step above, then stacked so
    /// that the handbook's order is the order of significance: C6 on top,
    /// then C7, the lower brackets (completion only), `gar`, C9, C14-C17
    /// and C18-C21, and the S1/S2 order at the bottom. `span` is how many
    /// players the matching that uses these weights holds (more than the
    /// bracket when the players below are in view); `limit` bounds the
    /// order digit.
    fn build(engine: &'e Engine<'a>, bracket: &[usize], limit: u32, span: usize) -> Self {
        let seats = engine.seats;
        let k = bracket.len();
        let low = bracket.iter().map(|&i| seats[i].score).min().unwrap_or(0);
        let (movers, ideal) = s1_s2_ideal(seats, bracket, low);
        let c6_bits = c6_digit_bits(k);
        let (ranks, place, c7_bits) =
            score_places(bracket.iter().map(|&i| seats[i].score).collect());
        let low_bits = lower_brackets_digit_bits(k, span);
        let gar_bits = gar_digit_bits(engine, k, span);
        let floats = c14_c17_floats(seats, bracket);
        let float_bits = c14_c17_digit_bits(k);
        let mut fixed = c6_bits
            + c7_bits
            + low_bits.unwrap_or(0)
            + gar_bits.unwrap_or(0)
            + floats.iter().filter(|&&b| b).count() as u32 * float_bits;
        let (mut sd, narrowed) = c18_c21_digits(seats, bracket, movers, &mut fixed);
        let c9_width = c9_digit(engine, bracket, low);
        fixed += c9_width.map_or(0, |(bits, _)| bits);
        let (order_bits, order_weighted) = order_digit_bits(k, movers, fixed, limit);

        let mut stack = Stack(0);
        let shift_order = order_bits.map(|b| stack.push(b));
        let shift_quality = stack.0;
        for d in sd.iter_mut().rev().flatten() {
            d.shift = stack.push(d.bits);
        }
        let mut shift_float = [None; 4];
        for (shift, _) in shift_float.iter_mut().zip(floats).rev().filter(|(_, f)| *f) {
            *shift = Some(stack.push(float_bits));
        }
        let c9 = c9_width.map(|(bits, score)| (stack.push(bits), score));
        let shift_gar = gar_bits.map(|b| stack.push(b));
        let shift_low = low_bits.map(|b| stack.push(b));
        let shift_scores = stack.push(c7_bits);
        let shift_pairs = stack.push(c6_bits);
        Weights {
            engine,
            bracket: bracket.to_vec(),
            shift_pairs,
            shift_scores,
            shift_gar,
            c9,
            shift_low,
            shift_float,
            sd,
            shift_order,
            shift_quality,
            order_weighted,
            place,
            ranks,
            ideal,
            movers,
            mdp_pairs_allowed: false,
            bits: stack.0 + 1,
            narrowed,
        }
    }

    /// The same weights moved up by `pad` bits, all of them: the same
    /// order of pairings at a width the tests choose.
    #[cfg(test)]
    pub(super) fn widened(&self, pad: u32) -> Self {
        let mut w = self.clone();
        for s in [
            &mut w.shift_pairs,
            &mut w.shift_scores,
            &mut w.shift_quality,
            &mut w.bits,
        ]
        .into_iter()
        .chain(w.shift_gar.as_mut())
        .chain(w.shift_low.as_mut())
        .chain(w.shift_order.as_mut())
        .chain(w.c9.as_mut().map(|c| &mut c.0))
        .chain(w.shift_float.iter_mut().flatten())
        .chain(w.sd.iter_mut().flatten().map(|d| &mut d.shift))
        {
            *s += pad;
        }
        w
    }

    /// What pairing a player of this score is worth to C7: its place
    /// value, so that sums compare like the lists of the downfloaters'
    /// scores from the highest.
    pub(super) fn cost<W: Digits>(&self, score: Points) -> W {
        let r = self.ranks.binary_search(&score).unwrap_or(0);
        W::from(1) << self.place[r]
    }

    /// Weight of pairing bracket positions `a` and `b`, `None` if they may
    /// not meet.
    pub(super) fn edge<W: Digits>(&self, a: usize, b: usize) -> Option<W> {
        self.weigh(a, b, true)
    }

    /// The weight without the S1/S2 order digit: the criteria only.
    pub(super) fn quality<W: Digits>(&self, a: usize, b: usize) -> Option<W> {
        self.weigh(a, b, false)
    }

    /// Every pair's weight (with or without the order digit) in the dense
    /// matrix a matching reads, zero where the pair may not meet; the
    /// players at positions in `banned` are left unpaired.
    pub(super) fn matrix<W: Digits>(&self, with_order: bool, banned: &[usize]) -> Vec<W> {
        let k = self.bracket.len();
        let mut m = vec![W::from(0); k * k];
        for a in 0..k {
            for b in a + 1..k {
                if banned.contains(&a) || banned.contains(&b) {
                    continue;
                }
                if let Some(x) = self.weigh::<W>(a, b, with_order) {
                    m[a * k + b] = x;
                }
            }
        }
        m
    }

    /// The value of a pairing (`l`: each position's partner): the sum of
    /// its pairs' weights.
    pub(super) fn total<W: Digits>(&self, l: &[Option<usize>]) -> W {
        (0..l.len())
            .filter_map(|a| l[a].filter(|&b| b > a).and_then(|b| self.edge::<W>(a, b)))
            .sum()
    }

    /// The bits the total weight of a pairing of the bracket takes: the
    /// integer type its matchings and compared sums need.
    pub(super) fn pairing_bits(&self) -> u32 {
        self.bits + 1 + bits_for(self.bracket.len() as i128)
    }

    /// Whether two pairings of the bracket are worth the same in every
    /// digit from bit `shift` up.
    pub(super) fn same_from(&self, x: &[Option<usize>], y: &[Option<usize>], shift: u32) -> bool {
        crate::with_width!(self.pairing_bits(), W => {
            self.total::<W>(x) >> shift == self.total::<W>(y) >> shift
        })
    }

    pub(super) fn weigh<W: Digits>(&self, a: usize, b: usize, with_order: bool) -> Option<W> {
        let seats = self.engine.seats;
        let (i, j) = (self.bracket[a], self.bracket[b]);
        if !self.engine.compatible(i, j) || self.both_moved_down(a, b) {
            return None;
        }
        let (si, sj) = (&seats[i], &seats[j]);
        let digit = |v: i128, shift: u32| W::from(v) << shift;
        let mut w = digit(c6_pairs(), self.shift_pairs);
        w += self.c7_scores_paired::<W>(si, sj) << self.shift_scores;
        if let Some(s) = self.shift_low {
            w += digit(LOW_CAP, s);
        }
        if let Some(s) = self.shift_gar {
            w += digit(self.gar_mates_apart(si, sj), s);
        }
        if let Some((s, bye_score)) = self.c9 {
            w += digit(c9_unplayed_games(si, sj, bye_score), s);
        }
        for (f, shift) in self.shift_float.iter().enumerate() {
            let Some(shift) = shift else { continue };
            let (dir, recent) = FLOAT_DIGITS[f];
            let v = match dir {
                FloatDirection::Down => c14_c16_repeated_downfloat(si, sj, recent),
                FloatDirection::Up => c15_c17_repeated_upfloat(si, sj, recent),
            };
            w += digit(v, *shift);
        }
        for (f, d) in self.sd.iter().enumerate() {
            let Some(d) = d else { continue };
            let (dir, recent) = FLOAT_DIGITS[f];
            let v = match dir {
                FloatDirection::Down => {
                    c18_c20_repeated_downfloaters_scores::<W>(d, si, sj, recent)
                }
                FloatDirection::Up => c19_c21_repeated_upfloat_differences(d, si, sj, recent),
            };
            w += v << d.shift;
        }
        if let Some(s) = self.shift_order.filter(|_| with_order) {
            w += digit(self.order_hint(a, b), s);
        }
        Some(w)
    }

    /// Two moved-down players never meet in the bracket they dropped into:
    /// the handbook's candidates of a heterogeneous bracket (Articles 3.2,
    /// 4.4) pair the MDPs of S1 with residents of S2, and the MDPs left in
    /// Limbo float on; the remainder holds residents only. (Completion may
    /// still need such a pair when no candidate completes the round: see
    /// [`Weights::mdp_pairs_allowed`].)
    pub(super) fn both_moved_down(&self, a: usize, b: usize) -> bool {
        !self.mdp_pairs_allowed && a < self.movers && b < self.movers
    }

    /// C7 (C.04.3, 2025): minimise the scores of the downfloaters, taken
    /// from the highest. Each player paired here is not a downfloater and
    /// is worth its score's place value (see `build`); the largest sum
    /// leaves the lowest list of downfloaters'
    /// scores (the 2017 pairing score difference gives the same order on
    /// the handbook's candidates).
    fn c7_scores_paired<W: Digits>(&self, si: &Seat, sj: &Seat) -> W {
        self.cost::<W>(si.score) + self.cost::<W>(sj.score)
    }

    /// Under `gar`, in rounds 1-3: club or team mates apart where possible
    /// (Kraal's avoidance table, ranked after C6-C8). One for a pair that
    /// keeps the preference.
    fn gar_mates_apart(&self, si: &Seat, sj: &Seat) -> i128 {
        let apart = si.is_bye
            || sj.is_bye
            || self
                .engine
                .avoid
                .prefers_apart(si.id, sj.id, self.engine.round)
                .is_none();
        i128::from(apart)
    }

    /// Not a criterion: how far the pair is from the ideal S1/S2 pairing,
    /// the lowest digit, so that the first guess of the generation order
    /// (see `generation`) is usually right and larger brackets get close
    /// to it.
    fn order_hint(&self, a: usize, b: usize) -> i128 {
        let k = self.bracket.len() as i128;
        let dev = |x: usize, y: usize| -> i128 {
            match self.ideal[x] {
                Some(t) => (t as i128 - y as i128).abs(),
                None => k - x as i128,
            }
        };
        let mut d = dev(a, b) + dev(b, a);
        let movers = self.movers as i128;
        if self.order_weighted {
            // The moved-down players are paired first (their S1/S2
            // choice is settled before the remainder's), the top first.
            let top = a.min(b) as i128;
            d *= k - top;
            if top < movers {
                d += dev(a.min(b), a.max(b)) * k * k * (movers - top);
            }
        }
        let cap = if self.order_weighted {
            2 * k * k + k * k * k * movers
        } else {
            2 * k
        };
        cap - d.min(cap)
    }
}

/// C6 (C.04.3, 2025): minimise the number of downfloaters, that is,
/// maximise the number of pairs. Every pair counts one.
fn c6_pairs() -> i128 {
    1
}

/// C9 (C.04.3, 2025): minimise the number of unplayed games of the player
/// who gets the pairing-allocated bye, in a bracket that floats exactly
/// that player. A pair is credited with the unplayed games of its players
/// who could take the bye (score `bye_score`, C2 allowing); the most credit
/// leaves the fewest unplayed games to the one who floats.
fn c9_unplayed_games(si: &Seat, sj: &Seat, bye_score: Points) -> i128 {
    let credit = |p: &Seat| {
        if p.score == bye_score && !p.bye_used && !p.is_bye {
            p.unplayed as i128
        } else {
            0
        }
    };
    credit(si) + credit(sj)
}

/// The float a player received one round ago (`recent`) or two.
fn past(s: &Seat, recent: bool) -> Option<FloatDirection> {
    if recent {
        s.float1
    } else {
        s.float2
    }
}

/// C14 / C16 (C.04.3, 2025): minimise the number of resident downfloaters
/// who received a downfloat in the previous round (two rounds before).
/// Pairing saves one for each such player who does not float down inside
/// the pair; a moved-down player meeting a resident floats down either
/// way, and the bye is a downfloat.
fn c14_c16_repeated_downfloat(si: &Seat, sj: &Seat, recent: bool) -> i128 {
    let (hi, lo) = if si.score >= sj.score {
        (si, sj)
    } else {
        (sj, si)
    };
    let differ = si.score != sj.score;
    let bye = si.is_bye || sj.is_bye;
    let saved = |s: &Seat, down_here: bool| {
        (past(s, recent) == Some(FloatDirection::Down) && !down_here && !s.is_bye) as i128
    };
    saved(hi, differ || bye) + saved(lo, bye)
}

/// C15 / C17 (C.04.3, 2025): minimise the number of MDP opponents who
/// received an upfloat in the previous round (two rounds before). One for
/// a pair that does not give its lower player a repeated upfloat.
fn c15_c17_repeated_upfloat(si: &Seat, sj: &Seat, recent: bool) -> i128 {
    let lo = if si.score >= sj.score { sj } else { si };
    let differ = si.score != sj.score;
    1 - (differ && past(lo, recent) == Some(FloatDirection::Up)) as i128
}

/// C18 / C20 (C.04.3, 2025): minimise the score differences, from the
/// highest, of the MDPs who received a downfloat in the previous round
/// (two rounds before). A downfloater of this bracket becomes an MDP of
/// the one below, where its difference is its score less that bracket's,
/// so the repeated downfloaters left unpaired should have the lowest
/// scores: each one paired here is credited with its score's place value.
fn c18_c20_repeated_downfloaters_scores<W: Digits>(
    d: &SdDigit,
    si: &Seat,
    sj: &Seat,
    recent: bool,
) -> W {
    let part = |s: &Seat, other: &Seat| {
        if s.is_bye || other.is_bye || past(s, recent) != Some(FloatDirection::Down) {
            W::ZERO
        } else {
            d.cost(s.score)
        }
    };
    part(si, sj) + part(sj, si)
}

/// C19 / C21 (C.04.3, 2025): minimise the score differences, from the
/// highest, of the MDP opponents who received an upfloat in the previous
/// round (two rounds before). Each player's share is the same unpaired as
/// paired without that upfloat, so only the differences count.
fn c19_c21_repeated_upfloat_differences<W: Digits>(
    d: &SdDigit,
    si: &Seat,
    sj: &Seat,
    recent: bool,
) -> W {
    let top = d.top::<W>();
    let part = |s: &Seat, other: &Seat| {
        if s.is_bye || other.is_bye || past(s, recent) != Some(FloatDirection::Up) {
            top
        } else if s.score < other.score {
            top - d.cost::<W>(other.score - s.score)
        } else {
            top
        }
    };
    part(si, sj) + part(sj, si)
}

impl SdDigit {
    /// The place value of `x` among this criterion's values.
    fn cost<W: Digits>(&self, x: Points) -> W {
        W::from(1) << self.place[self.ranks.binary_search(&x).unwrap_or(0)]
    }

    /// The place value of the largest value.
    fn top<W: Digits>(&self) -> W {
        W::from(1) << self.place[self.ranks.len() - 1]
    }
}
