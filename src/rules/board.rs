//! The Morabaraba board: 24 junctions, 20 lines of three and the links
//! between junctions (OGR 2.1-2.5, 3.2.2).
//!
//! A set of junctions is a `u32` bitmask. Bit `i` is junction `i` in reading
//! order from dark's side of the board: row 1 first, then row 2 and so on up
//! to row 7, and left to right (column A to G) inside a row:
//!
//! ```text
//!  21 A7 ---------- 22 D7 ---------- 23 G7
//!  |   18 B6 ------ 19 D6 ------ 20 F6   |
//!  |   |   15 C5 - 16 D5 - 17 E5   |     |
//!  9 A4 - 10 B4 - 11 C4   12 E4 - 13 F4 - 14 G4
//!  |   |    6 C3 -  7 D3 -  8 E3   |     |
//!  |    3 B2 ------  4 D2 ------  5 F2   |
//!   0 A1 ----------  1 D1 ----------  2 G1
//! ```
//!
//! plus the diagonals A1-B2-C3, G1-F2-E3, A7-B6-C5 and G7-F6-E5. Everything
//! the move generator needs (neighbours, the lines through a junction) is a
//! table computed at compile time, so a position is plain bits and copies
//! cheaply.

use std::fmt;

/// A set of junctions, one bit per junction in the order above.
pub type Bits = u32;

/// Every junction of the board.
pub const ALL: Bits = (1 << 24) - 1;

/// One of the 24 junctions, numbered 0..24 in the order of the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Junction(u8);

/// Column letter and row digit of each junction, in bit order.
const COORDS: [(u8, u8); 24] = [
    (b'A', b'1'),
    (b'D', b'1'),
    (b'G', b'1'),
    (b'B', b'2'),
    (b'D', b'2'),
    (b'F', b'2'),
    (b'C', b'3'),
    (b'D', b'3'),
    (b'E', b'3'),
    (b'A', b'4'),
    (b'B', b'4'),
    (b'C', b'4'),
    (b'E', b'4'),
    (b'F', b'4'),
    (b'G', b'4'),
    (b'C', b'5'),
    (b'D', b'5'),
    (b'E', b'5'),
    (b'B', b'6'),
    (b'D', b'6'),
    (b'F', b'6'),
    (b'A', b'7'),
    (b'D', b'7'),
    (b'G', b'7'),
];

const NOT_A_JUNCTION: u8 = u8::MAX;

/// The junction at each grid point, `GRID[row][column]` from A1.
const GRID: [[u8; 7]; 7] = {
    let mut grid = [[NOT_A_JUNCTION; 7]; 7];
    let mut i = 0;
    while i < 24 {
        let (c, r) = COORDS[i];
        grid[(r - b'1') as usize][(c - b'A') as usize] = i as u8;
        i += 1;
    }
    grid
};

const NAMES: [&str; 24] = [
    "A1", "D1", "G1", "B2", "D2", "F2", "C3", "D3", "E3", "A4", "B4", "C4", "E4", "F4", "G4", "C5",
    "D5", "E5", "B6", "D6", "F6", "A7", "D7", "G7",
];

impl Junction {
    /// The junction with this bit index, if it is one (0..24).
    pub const fn new(index: u8) -> Option<Junction> {
        if index < 24 {
            Some(Junction(index))
        } else {
            None
        }
    }

    /// The junction at this column letter and row digit, in either case.
    /// `None` for a grid point that is not a junction (D4, A2, ...).
    #[inline]
    pub fn from_coords(column: u8, row: u8) -> Option<Junction> {
        let c = column.to_ascii_uppercase().wrapping_sub(b'A') as usize;
        let r = row.wrapping_sub(b'1') as usize;
        match GRID.get(r).and_then(|row| row.get(c)) {
            Some(&i) if i != NOT_A_JUNCTION => Some(Junction(i)),
            _ => None,
        }
    }

    /// Parses `A1`..`G7`, in either case.
    pub fn parse(name: &str) -> Option<Junction> {
        match name.as_bytes() {
            [c, r] => Junction::from_coords(*c, *r),
            _ => None,
        }
    }

    /// The bit index (0..24).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The one-junction set.
    pub const fn bit(self) -> Bits {
        1 << self.0
    }

    /// Upper-case name as the official notation writes it (`C5`).
    pub const fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// The junctions linked to this one by a line of the board (OGR 3.2.2).
    pub const fn neighbours(self) -> Bits {
        NEIGHBOURS[self.0 as usize]
    }

    /// The indices of the lines through this junction (two or three).
    pub fn lines(self) -> &'static [u8] {
        let (lines, n) = &LINES_THROUGH[self.0 as usize];
        &lines[..*n as usize]
    }

    /// Every junction, in bit order.
    pub fn all() -> impl Iterator<Item = Junction> {
        (0..24).map(Junction)
    }
}

impl fmt::Display for Junction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The 20 lines of three, each as its junctions in order along the line:
/// 8 horizontal, 8 vertical, 4 diagonal (OGR 2.3).
pub const LINES: [[u8; 3]; 20] = [
    [0, 1, 2],    // A1-D1-G1
    [3, 4, 5],    // B2-D2-F2
    [6, 7, 8],    // C3-D3-E3
    [9, 10, 11],  // A4-B4-C4
    [12, 13, 14], // E4-F4-G4
    [15, 16, 17], // C5-D5-E5
    [18, 19, 20], // B6-D6-F6
    [21, 22, 23], // A7-D7-G7
    [0, 9, 21],   // A1-A4-A7
    [3, 10, 18],  // B2-B4-B6
    [6, 11, 15],  // C3-C4-C5
    [1, 4, 7],    // D1-D2-D3
    [16, 19, 22], // D5-D6-D7
    [8, 12, 17],  // E3-E4-E5
    [5, 13, 20],  // F2-F4-F6
    [2, 14, 23],  // G1-G4-G7
    [0, 3, 6],    // A1-B2-C3
    [2, 5, 8],    // G1-F2-E3
    [21, 18, 15], // A7-B6-C5
    [23, 20, 17], // G7-F6-E5
];

/// Each line as a set of junctions.
pub const LINE_BITS: [Bits; 20] = {
    let mut out = [0; 20];
    let mut i = 0;
    while i < 20 {
        out[i] = (1 << LINES[i][0]) | (1 << LINES[i][1]) | (1 << LINES[i][2]);
        i += 1;
    }
    out
};

/// Neighbours: consecutive junctions on one line.
const NEIGHBOURS: [Bits; 24] = {
    let mut out = [0; 24];
    let mut i = 0;
    while i < 20 {
        let [a, b, c] = LINES[i];
        out[a as usize] |= 1 << b;
        out[b as usize] |= (1 << a) | (1 << c);
        out[c as usize] |= 1 << b;
        i += 1;
    }
    out
};

const LINES_THROUGH: [([u8; 3], u8); 24] = {
    let mut out = [([0u8; 3], 0u8); 24];
    let mut i = 0;
    while i < 20 {
        let mut k = 0;
        while k < 3 {
            let j = LINES[i][k] as usize;
            let n = out[j].1 as usize;
            out[j].0[n] = i as u8;
            out[j].1 += 1;
            k += 1;
        }
        i += 1;
    }
    out
};

/// For each junction, the union of the lines through it.
pub const LINES_THROUGH_BITS: [Bits; 24] = {
    let mut out = [0; 24];
    let mut i = 0;
    while i < 20 {
        let bits = LINE_BITS[i];
        let mut k = 0;
        while k < 3 {
            out[LINES[i][k] as usize] |= bits;
            k += 1;
        }
        i += 1;
    }
    out
};

/// Whether placing (or moving) a cow onto `to` completes a line when the
/// player's cows, after the move, are `mine`.
#[inline]
pub fn completes_line(mine: Bits, to: Junction) -> bool {
    let (lines, n) = &LINES_THROUGH[to.index()];
    lines[..*n as usize]
        .iter()
        .any(|&l| LINE_BITS[l as usize] & mine == LINE_BITS[l as usize])
}

/// The lines through `to` that `mine` fills completely.
#[inline]
pub fn lines_completed(mine: Bits, to: Junction) -> impl Iterator<Item = usize> {
    let (lines, n) = LINES_THROUGH[to.index()];
    (0..n as usize)
        .map(move |k| lines[k] as usize)
        .filter(move |&l| LINE_BITS[l] & mine == LINE_BITS[l])
}

/// Whether the cow on `j` stands in a line of three of `cows`.
#[inline]
pub fn in_line(cows: Bits, j: Junction) -> bool {
    cows & j.bit() != 0 && completes_line(cows, j)
}

/// The cows of `cows` that stand in a line of three of their own (OGR 3.1.8.1).
#[inline]
pub fn protected(cows: Bits) -> Bits {
    let mut out = 0;
    for line in LINE_BITS {
        if cows & line == line {
            out |= line;
        }
    }
    out
}

/// The empty junctions that would complete a line of `cows` if one of them
/// were added there, given the empty junctions `empty`.
#[inline]
pub fn completing_squares(cows: Bits, empty: Bits) -> Bits {
    let mut out = 0;
    for line in LINE_BITS {
        let have = cows & line;
        // Exactly two of the three: more than one bit, and not all three.
        if have & have.wrapping_sub(1) != 0 && have != line {
            out |= line & empty;
        }
    }
    out
}

/// Iterates over the junctions of a set, lowest bit first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub Bits);

impl Iterator for Squares {
    type Item = Junction;
    #[inline]
    fn next(&mut self) -> Option<Junction> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Junction(i as u8))
        }
    }
}

/// The two players. Dark (cows 1-12) always starts (OGR 3.1.2-3.1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Dark,
    Light,
}

impl Side {
    /// 0 for dark, 1 for light: the index into per-side arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn other(self) -> Side {
        match self {
            Side::Dark => Side::Light,
            Side::Light => Side::Dark,
        }
    }

    /// `dark` or `light`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Dark => "dark",
            Side::Light => "light",
        }
    }

    /// The side whose cows carry this number (1-12 dark, 13-24 light).
    pub const fn of_cow(cow: u8) -> Option<Side> {
        match cow {
            1..=12 => Some(Side::Dark),
            13..=24 => Some(Side::Light),
            _ => None,
        }
    }

    /// The cow numbers of this side as a bitmask over bits 1..=24.
    pub const fn cow_numbers(self) -> u32 {
        match self {
            Side::Dark => 0x1ffe,
            Side::Light => 0x1ffe000,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_non_junctions_are_refused() {
        for j in Junction::all() {
            assert_eq!(Junction::parse(j.name()), Some(j));
            assert_eq!(Junction::parse(&j.name().to_lowercase()), Some(j));
        }
        for bad in ["D4", "A2", "B1", "H1", "A8", "", "A", "A11"] {
            assert_eq!(Junction::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn neighbours_follow_lines_only() {
        let j = |s| Junction::parse(s).unwrap();
        let names = |b: Bits| Squares(b).map(|j| j.name()).collect::<Vec<_>>();
        assert_eq!(names(j("A1").neighbours()), ["D1", "B2", "A4"]);
        assert_eq!(names(j("B2").neighbours()), ["A1", "D2", "C3", "B4"]);
        assert_eq!(names(j("D2").neighbours()), ["D1", "B2", "F2", "D3"]);
        assert_eq!(j("A1").neighbours() & j("D2").bit(), 0, "OGR 3.2.2.1");
        // The board has 32 links along the lines: 20 lines of two links,
        // each link counted from both ends.
        let total: u32 = Junction::all().map(|j| j.neighbours().count_ones()).sum();
        assert_eq!(total, 80);
        for a in Junction::all() {
            for b in Squares(a.neighbours()) {
                assert_ne!(b.neighbours() & a.bit(), 0, "links go both ways");
            }
        }
    }

    #[test]
    fn every_junction_is_on_two_or_three_lines() {
        for j in Junction::all() {
            let n = j.lines().len();
            assert!((2..=3).contains(&n), "{j} is on {n} lines");
        }
        assert_eq!(Junction::parse("B2").unwrap().lines().len(), 3);
        assert_eq!(Junction::parse("D2").unwrap().lines().len(), 2);
    }

    #[test]
    fn completing_squares_need_exactly_two() {
        let set = |names: &[&str]| {
            names
                .iter()
                .fold(0, |b, n| b | Junction::parse(n).unwrap().bit())
        };
        let cows = set(&["A1", "D1", "B2"]);
        let empty = ALL & !cows;
        assert_eq!(completing_squares(cows, empty), set(&["G1", "C3"]));
        assert_eq!(
            protected(set(&["A1", "D1", "G1", "B2"])),
            set(&["A1", "D1", "G1"])
        );
    }
}
