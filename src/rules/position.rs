//! A position (whose cows stand where, who is to move, what is still in hand)
//! and the game's memory of spent arrangements.
//!
//! [`Position`] is a handful of bytes and `Copy`, so search and replay copy
//! it freely. The one thing that grows with the game, the list of spent
//! arrangements of OGR 3.2.4.1.2-4, is kept beside it in [`Game`], the way a
//! chess engine keeps its repetition history beside the board.

use super::board::{in_line, lines_completed, protected, Bits, Junction, Side, LINES};
use super::ruleset::{AllProtected, PlayRules};
use serde::Serialize;
use std::fmt;

/// No cow on the junction.
const NO_COW: u8 = 0;
/// No return forbidden.
const NO_RETURN: u16 = u16::MAX;

/// One turn: a placement (`from` is `None`), a step or a fly, together with
/// its shot. Each shot target makes a different move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Option<Junction>,
    pub to: Junction,
    pub shot: Option<Junction>,
}

impl Move {
    pub fn place(to: Junction) -> Move {
        Move {
            from: None,
            to,
            shot: None,
        }
    }

    pub fn step(from: Junction, to: Junction) -> Move {
        Move {
            from: Some(from),
            to,
            shot: None,
        }
    }

    pub fn shooting(self, target: Junction) -> Move {
        Move {
            shot: Some(target),
            ..self
        }
    }
}

impl fmt::Display for Move {
    /// Standard notation (`a1`, `a1-a4`, `d5xe3`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(from) = self.from {
            write!(f, "{}-", from.name().to_ascii_lowercase())?;
        }
        f.write_str(&self.to.name().to_ascii_lowercase())?;
        if let Some(shot) = self.shot {
            write!(f, "x{}", shot.name().to_ascii_lowercase())?;
        }
        Ok(())
    }
}

/// A line together with which numbered cow stands on which of its junctions
/// (OGR 3.2.4.1.4): the same three cows permuted are another arrangement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Arrangement(u32);

impl Arrangement {
    /// The arrangement of these cows (in the order of the line's junctions)
    /// on line `line` of [`LINES`].
    pub fn new(line: usize, cows: [u8; 3]) -> Arrangement {
        Arrangement(
            line as u32 | (cows[0] as u32) << 5 | (cows[1] as u32) << 10 | (cows[2] as u32) << 15,
        )
    }

    /// Index into [`LINES`].
    pub fn line(self) -> usize {
        (self.0 & 31) as usize
    }

    /// The cow numbers in the order of the line's junctions.
    pub fn cows(self) -> [u8; 3] {
        [
            (self.0 >> 5 & 31) as u8,
            (self.0 >> 10 & 31) as u8,
            (self.0 >> 15 & 31) as u8,
        ]
    }
}

impl fmt::Display for Arrangement {
    /// As the triplets column writes it: `A1,4-B2,6-C3,8` (OGR 7.1.1.1).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(line) = LINES.get(self.line()) else {
            return write!(f, "line {}", self.line());
        };
        let cows = self.cows();
        for k in 0..3 {
            if k > 0 {
                f.write_str("-")?;
            }
            let j = Junction::new(line[k]).expect("line junctions are junctions");
            write!(f, "{},{}", j.name(), cows[k])?;
        }
        Ok(())
    }
}

impl Serialize for Arrangement {
    /// As text, the way the triplets column writes it.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Why an arrangement entered the triplets column of OGR 6.2.7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TripletKind {
    /// It was used to shoot (OGR 3.2.4.1.2).
    Shot,
    /// No opponent cow could be shot (OGR 3.1.8.2).
    Barren,
    /// It formed in the same move as the line that shot (OGR 3.1.9).
    Paralysed,
}

impl TripletKind {
    /// `shot`, `barren` or `paralysed`.
    pub fn name(self) -> &'static str {
        match self {
            TripletKind::Shot => "shot",
            TripletKind::Barren => "barren",
            TripletKind::Paralysed => "paralysed",
        }
    }
}

/// One entry of the triplets column.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Triplet {
    /// The ply (1-based) that formed it.
    pub ply: u32,
    pub side: Side,
    pub kind: TripletKind,
    /// Written `A1,4-B2,6-C3,8`.
    pub arrangement: Arrangement,
}

/// The lines one move completes, and which of them may still shoot.
#[derive(Clone, Copy, Debug, Default)]
pub struct Formed {
    lines: [(Option<Arrangement>, bool); 3],
    n: u8,
}

impl Formed {
    /// Each completed line's arrangement and whether it may shoot (is not spent).
    pub fn lines(&self) -> impl Iterator<Item = (Arrangement, bool)> + '_ {
        self.lines[..self.n as usize]
            .iter()
            .filter_map(|&(a, fresh)| a.map(|a| (a, fresh)))
    }

    /// Whether the move completed any line at all.
    pub fn any(&self) -> bool {
        self.n > 0
    }

    /// Whether some completed line may shoot.
    pub fn any_fresh(&self) -> bool {
        self.lines().any(|(_, fresh)| fresh)
    }
}

/// Where the cows are and whose turn it is. Cheap to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    cows: [Bits; 2],
    /// The number of cows in `cows`, kept rather than counted: the end of
    /// the game is asked about after every ply.
    on_board: [u8; 2],
    /// Cow number on each junction, 0 when empty.
    ids: [u8; 24],
    in_hand: [u8; 2],
    /// Cow numbers already placed, bit `n` for cow `n`.
    placed: u32,
    side: Side,
    /// Plies since the last shot (or since the start).
    since_shot: u16,
    /// Per side, the return that side may not make on its next move under
    /// the GAR no-return rule: `from | to << 8`, or `NO_RETURN`.
    no_return: [u16; 2],
    ply: u16,
}

impl Position {
    /// The empty board, dark to place (OGR 3.1.1-3.1.3).
    pub fn new(rules: &PlayRules) -> Position {
        Position {
            cows: [0; 2],
            on_board: [0; 2],
            ids: [NO_COW; 24],
            in_hand: [rules.cows, rules.cows],
            placed: 0,
            side: Side::Dark,
            since_shot: 0,
            no_return: [NO_RETURN; 2],
            ply: 0,
        }
    }

    /// A position set up by hand, for studies and tests: cows as (junction,
    /// number) pairs, cows still in hand, and the side to move. Cow numbers
    /// of the wrong side or out of range are replaced by the next free ones;
    /// a junction named twice keeps its last cow.
    pub fn setup(
        rules: &PlayRules,
        dark: &[(Junction, u8)],
        light: &[(Junction, u8)],
        in_hand: [u8; 2],
        side: Side,
    ) -> Position {
        let mut pos = Position::new(rules);
        pos.in_hand = in_hand;
        pos.side = side;
        for (who, cows) in [(Side::Dark, dark), (Side::Light, light)] {
            for &(j, cow) in cows {
                let cow = if Side::of_cow(cow) == Some(who) && !pos.is_placed(cow) {
                    cow
                } else {
                    pos.next_cow(who).unwrap_or(NO_COW)
                };
                pos.cows[0] &= !j.bit();
                pos.cows[1] &= !j.bit();
                pos.cows[who.index()] |= j.bit();
                pos.ids[j.index()] = cow;
                if cow != NO_COW {
                    pos.placed |= 1 << cow;
                }
            }
        }
        pos.on_board = pos.cows.map(|c| c.count_ones() as u8);
        // Cows not on the board and not in hand count as placed (and shot).
        for who in [Side::Dark, Side::Light] {
            let mut unplaced = (who.cow_numbers() & !pos.placed).count_ones();
            while unplaced > pos.in_hand[who.index()] as u32 {
                if let Some(n) = pos.next_cow(who) {
                    pos.placed |= 1 << n;
                }
                unplaced -= 1;
            }
        }
        pos
    }

    /// The side to move.
    pub fn side(&self) -> Side {
        self.side
    }

    /// Lets a replay hand the move to the side a scoresheet says moved.
    pub(crate) fn set_side(&mut self, side: Side) {
        self.side = side;
    }

    /// The junctions holding this side's cows.
    pub fn cows(&self, side: Side) -> Bits {
        self.cows[side.index()]
    }

    /// Every occupied junction.
    pub fn occupied(&self) -> Bits {
        self.cows[0] | self.cows[1]
    }

    /// The cow number on a junction, if any.
    pub fn cow_at(&self, j: Junction) -> Option<u8> {
        match self.ids[j.index()] {
            NO_COW => None,
            n => Some(n),
        }
    }

    /// Which side has a cow on this junction.
    pub fn owner(&self, j: Junction) -> Option<Side> {
        if self.cows[0] & j.bit() != 0 {
            Some(Side::Dark)
        } else if self.cows[1] & j.bit() != 0 {
            Some(Side::Light)
        } else {
            None
        }
    }

    /// Cows this side still has to place.
    pub fn in_hand(&self, side: Side) -> u8 {
        self.in_hand[side.index()]
    }

    /// Cows on the board plus cows in hand: what "down to three" and "two
    /// cows left" count.
    pub fn total(&self, side: Side) -> u8 {
        self.on_board[side.index()] + self.in_hand[side.index()]
    }

    /// Plies played.
    pub fn ply(&self) -> u32 {
        self.ply as u32
    }

    /// Plies since the last shot.
    pub fn since_shot(&self) -> u32 {
        self.since_shot as u32
    }

    /// Whether this side moves its cows anywhere (stage 3, OGR 3.3.1).
    pub fn flies(&self, rules: &PlayRules, side: Side) -> bool {
        self.in_hand[side.index()] == 0 && self.on_board[side.index()] == rules.fly_at
    }

    /// The return this side may not make next, as (from, to), under GAR.
    pub fn forbidden_return(&self, side: Side) -> Option<(Junction, Junction)> {
        match self.no_return[side.index()] {
            NO_RETURN => None,
            v => Some((Junction::new(v as u8)?, Junction::new((v >> 8) as u8)?)),
        }
    }

    /// The lowest cow number of this side not yet placed: the number a
    /// placement gets when the scoresheet does not write one.
    pub fn next_cow(&self, side: Side) -> Option<u8> {
        let free = side.cow_numbers() & !self.placed;
        (free != 0).then(|| free.trailing_zeros() as u8)
    }

    /// Whether this cow number has been placed already.
    pub fn is_placed(&self, cow: u8) -> bool {
        cow < 32 && self.placed & (1 << cow) != 0
    }

    /// The cows the side to move may shoot after completing a fresh line,
    /// or none when its line would be barren (OGR 3.1.8, GAR stage 1).
    #[inline]
    pub fn targets(&self, rules: &PlayRules) -> Bits {
        let theirs = self.cows[self.side.other().index()];
        let loose = theirs & !protected(theirs);
        if loose != 0 {
            loose
        } else {
            match rules.all_protected {
                AllProtected::Barren => 0,
                AllProtected::ShootAny => theirs,
            }
        }
    }

    /// The lines the side to move completes by bringing cow `cow` to `to`
    /// (from `from`, if it moves), and whether each may shoot.
    pub fn formed(
        &self,
        rules: &PlayRules,
        spent: &[Arrangement],
        from: Option<Junction>,
        to: Junction,
        cow: u8,
    ) -> Formed {
        let me = self.side.index();
        let mut mine = self.cows[me] | to.bit();
        if let Some(from) = from {
            if self.cows[me] & from.bit() == 0 {
                // The cow moved is not the mover's: it cannot complete the
                // mover's lines.
                return Formed::default();
            }
            mine &= !from.bit();
            mine |= to.bit();
        }
        let mut out = Formed::default();
        for line in lines_completed(mine, to) {
            let mut cows = [0; 3];
            for (k, &j) in LINES[line].iter().enumerate() {
                cows[k] = if j as usize == to.index() {
                    cow
                } else {
                    self.ids[j as usize]
                };
            }
            let arrangement = Arrangement::new(line, cows);
            let fresh = !(rules.spent_arrangements && spent.contains(&arrangement));
            out.lines[out.n as usize] = (Some(arrangement), fresh);
            out.n += 1;
        }
        out
    }

    /// Plays a move as written, without asking whether it is legal: the
    /// scoresheet check validates first and then uses this to accept what
    /// was played. The side to move is the mover; `cow` is the number of a
    /// placed cow. A shot removes whatever cow stands on the target.
    /// Arrangements that shoot, are barren or are paralysed go to `spent`
    /// under rule sets that track them (and always to `triplets`).
    pub fn play(
        &mut self,
        rules: &PlayRules,
        spent: &mut Vec<Arrangement>,
        mv: Move,
        cow: u8,
        triplets: Option<&mut Vec<Triplet>>,
    ) -> Formed {
        let cow = match mv.from {
            Some(from) => self.ids[from.index()],
            None => cow,
        };
        let formed = self.formed(rules, spent, mv.from, mv.to, cow);
        self.play_formed(rules, spent, mv, cow, formed, triplets);
        formed
    }

    /// [`Position::play`] with the lines the move forms already worked out
    /// by [`Position::formed`].
    pub(crate) fn play_formed(
        &mut self,
        rules: &PlayRules,
        spent: &mut Vec<Arrangement>,
        mv: Move,
        cow: u8,
        formed: Formed,
        triplets: Option<&mut Vec<Triplet>>,
    ) {
        let me = self.side.index();
        let cow = match mv.from {
            Some(from) => self.ids[from.index()],
            None => cow,
        };
        let broke_line = match mv.from {
            Some(from) if rules.no_return => in_line(self.cows[me], from),
            _ => false,
        };
        let targets = if formed.any_fresh() {
            self.targets(rules)
        } else {
            0
        };

        // The cow itself.
        match mv.from {
            None => {
                if self.cows[me] & mv.to.bit() == 0 {
                    self.on_board[me] += 1;
                }
                self.cows[me] |= mv.to.bit();
                self.in_hand[me] = self.in_hand[me].saturating_sub(1);
                if cow < 32 {
                    self.placed |= 1 << cow;
                }
            }
            Some(from) => {
                for side in &mut self.cows {
                    if *side & from.bit() != 0 {
                        *side = *side & !from.bit() | mv.to.bit();
                    }
                }
                self.ids[from.index()] = NO_COW;
            }
        }
        self.ids[mv.to.index()] = cow;

        // The shot.
        let mut shot = false;
        if let Some(target) = mv.shot {
            if let Some(victim) = self.owner(target) {
                self.on_board[victim.index()] -= 1;
                self.cows[0] &= !target.bit();
                self.cows[1] &= !target.bit();
                self.ids[target.index()] = NO_COW;
                shot = true;
            }
        }

        // The triplets column.
        if formed.any_fresh() && (shot || targets == 0) {
            let mut first = true;
            let mut log = triplets;
            for (arrangement, fresh) in formed.lines() {
                if !fresh {
                    continue;
                }
                let kind = if !shot {
                    TripletKind::Barren
                } else if first {
                    TripletKind::Shot
                } else {
                    TripletKind::Paralysed
                };
                first = false;
                if rules.spent_arrangements {
                    spent.push(arrangement);
                }
                if let Some(log) = log.as_deref_mut() {
                    log.push(Triplet {
                        ply: self.ply as u32 + 1,
                        side: self.side,
                        kind,
                        arrangement,
                    });
                }
            }
        }

        if rules.no_return {
            self.no_return[me] = match mv.from {
                Some(from) if broke_line && formed.any() => {
                    mv.to.index() as u16 | (from.index() as u16) << 8
                }
                _ => NO_RETURN,
            };
        }
        self.since_shot = if shot {
            0
        } else {
            self.since_shot.saturating_add(1)
        };
        self.ply = self.ply.saturating_add(1);
        self.side = self.side.other();
    }

    /// A ply on which nothing could be played: the turn passes, and the ply
    /// counts towards the ten-move draw like any other.
    pub(crate) fn pass(&mut self) {
        self.no_return[self.side.index()] = NO_RETURN;
        self.since_shot = self.since_shot.saturating_add(1);
        self.ply = self.ply.saturating_add(1);
        self.side = self.side.other();
    }

    /// A placement that completes no line, without the bookkeeping only
    /// lines need: the fast path of `perft`.
    #[inline]
    pub(crate) fn place_quietly(&mut self, to: Junction) {
        let me = self.side.index();
        let cow = self.next_cow(self.side).unwrap_or(NO_COW);
        self.cows[me] |= to.bit();
        self.on_board[me] += 1;
        self.in_hand[me] -= 1;
        self.placed |= 1 << cow;
        self.ids[to.index()] = cow;
        self.since_shot = self.since_shot.saturating_add(1);
        self.no_return[me] = NO_RETURN;
        self.ply += 1;
        self.side = self.side.other();
    }

    /// A text picture of the board (dark `x`, light `o`), dark's side at the
    /// bottom as OGR 2.4 seats the players.
    pub fn diagram(&self) -> String {
        const ROWS: [&str; 7] = [
            "7 *---------*---------*",
            "6 |  *------*------*  |",
            "5 |  |  *---*---*  |  |",
            "4 *--*--*       *--*--*",
            "3 |  |  *---*---*  |  |",
            "2 |  *------*------*  |",
            "1 *---------*---------*",
        ];
        let mut out = String::with_capacity(200);
        for (i, row) in ROWS.iter().enumerate() {
            // Junctions are numbered row by row from row 1, left to right.
            let first: usize = [21, 18, 15, 9, 6, 3, 0][i];
            let mut k = first;
            for c in row.chars() {
                if c == '*' {
                    let bit = 1 << k;
                    out.push(if self.cows[0] & bit != 0 {
                        'x'
                    } else if self.cows[1] & bit != 0 {
                        'o'
                    } else {
                        '.'
                    });
                    k += 1;
                } else {
                    out.push(c);
                }
            }
            out.push('\n');
        }
        out.push_str("  A  B  C  D  E  F  G\n");
        out
    }
}

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Won { winner: Side, reason: WinReason },
    Drawn,
}

/// Why a game was won on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    /// The loser had only two cows left (OGR 4.2.3).
    TwoCows,
    /// The loser had the move but could not move (OGR 4.2.2).
    Blocked,
}

/// A position together with the rule set and the spent arrangements: all a
/// game needs to know to say which moves are legal.
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: PlayRules,
    pub position: Position,
    pub spent: Vec<Arrangement>,
}

impl Game {
    /// The start of a game under these rules.
    pub fn new(rules: PlayRules) -> Game {
        Game {
            rules,
            position: Position::new(&rules),
            spent: Vec::new(),
        }
    }

    /// Plays a move the caller knows to be legal (one from
    /// [`super::movegen::legal_moves`]).
    pub fn play(&mut self, mv: Move) {
        let cow = self
            .position
            .next_cow(self.position.side())
            .unwrap_or(NO_COW);
        self.position
            .play(&self.rules, &mut self.spent, mv, cow, None);
    }

    /// The legal moves of the side to move; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        super::movegen::legal_moves(&self.position, &self.rules, &self.spent, &mut out);
        out
    }

    /// How the game stands.
    pub fn status(&self) -> Status {
        super::movegen::status(&self.position, &self.rules)
    }
}
