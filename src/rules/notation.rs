//! Scoresheet notation: reading and writing both styles (OGR 6, 7 and the
//! standard a1..g7 notation), freely mixed.
//!
//! | what | official style | standard style |
//! |---|---|---|
//! | place | `C5-1` (junction, cow number) | `c5` |
//! | move / fly | `A1,3-A4` (from, cow, to) | `a1-a4` |
//! | shot | `... x F2,15` | `... xf2` |
//!
//! Case does not matter; spaces may surround `-`, `,` and `x`; `-` may be an
//! en or em dash (or a minus sign) and `x` may be `X` or `×`. Move numbers
//! (`12.`, `12...`), annotations (`! !! ? ?? !? ?! * + =`), `{comments}`,
//! results (`1-0`, `0-1`, `1/2-1/2`, `½-½`) and a header of `[Tag "value"]`
//! lines are accepted and kept. A `-N` straight after a junction that has
//! no cow number yet is that cow's number; the material counts of OGR
//! 7.1.12-13 (`+1`, `-2`) are read only after the last move (including a
//! ` -N` after the last move's shot, whose cow the official style writes
//! after a comma).
//!
//! The reader only reads: whether the moves are legal is [`super::check`]'s
//! business. It never panics; an error names the line and column (both
//! 1-based, columns in characters) and what was expected there.

use super::board::{Junction, Side};
use super::position::{Game, Move, Position};
use super::ruleset::PlayRules;
use serde::Serialize;
use std::fmt::Write as _;

/// The text could not be read as a scoresheet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: expected {expected}, found {found}")]
pub struct ParseError {
    pub line: u32,
    pub column: u32,
    /// What would have been accepted there.
    pub expected: String,
    /// What was there instead.
    pub found: String,
}

/// The result of a game as a scoresheet writes it, by colour (a
/// tournament records results by who started: [`crate::results::GameResult`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SheetResult {
    /// `1-0`: dark won.
    #[serde(rename = "1-0")]
    DarkWins,
    /// `0-1`: light won.
    #[serde(rename = "0-1")]
    LightWins,
    /// `1/2-1/2`.
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl SheetResult {
    pub fn as_str(self) -> &'static str {
        match self {
            SheetResult::DarkWins => "1-0",
            SheetResult::LightWins => "0-1",
            SheetResult::Draw => "1/2-1/2",
        }
    }

    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Side> {
        match self {
            SheetResult::DarkWins => Some(Side::Dark),
            SheetResult::LightWins => Some(Side::Light),
            SheetResult::Draw => None,
        }
    }

    /// Reads `1-0`, `0-1`, `1/2-1/2`, `½-½` (any dash); `None` otherwise.
    pub fn parse(text: &str) -> Option<SheetResult> {
        let s: String = text
            .trim()
            .chars()
            .map(|c| if is_dash(c) { '-' } else { c })
            .filter(|c| !c.is_whitespace())
            .collect();
        match s.as_str() {
            "1-0" => Some(SheetResult::DarkWins),
            "0-1" => Some(SheetResult::LightWins),
            "1/2-1/2" | "½-½" => Some(SheetResult::Draw),
            _ => None,
        }
    }
}

/// A junction as written, with its cow number if one was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrittenCow {
    pub junction: Junction,
    pub cow: Option<u8>,
}

/// A move number as written: `12.` announces dark's move, `12...` light's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumber {
    pub number: u32,
    pub side: Side,
}

/// One ply as written on the sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenPly {
    /// The move number written just before it, if any.
    pub number: Option<MoveNumber>,
    /// Where the cow came from; `None` for a placement.
    pub from: Option<WrittenCow>,
    /// Where the cow went; for a placement, with the placed cow's number.
    pub to: WrittenCow,
    pub shot: Option<WrittenCow>,
    /// Annotation signs written after it (OGR 7), e.g. `!?`.
    pub annotation: String,
    /// Byte range of the move (with its shot) in the source.
    pub span: (usize, usize),
    /// Byte ranges of the comments following it.
    pub comments: Vec<(usize, usize)>,
}

impl WrittenPly {
    /// The move (without annotation) as a [`Move`].
    pub fn to_move(&self) -> Move {
        Move {
            from: self.from.map(|c| c.junction),
            to: self.to.junction,
            shot: self.shot.map(|c| c.junction),
        }
    }
}

/// A `[Name "value"]` header line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    pub value: String,
    /// Byte offset of the value in the source, for error positions.
    pub offset: usize,
}

/// A scoresheet as read, before any rule is applied.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Scoresheet {
    pub source: String,
    pub tags: Vec<Tag>,
    pub plies: Vec<WrittenPly>,
    /// Comments before the first move, as byte ranges of the source.
    pub preamble: Vec<(usize, usize)>,
    /// The result written after the moves.
    pub result: Option<SheetResult>,
    /// Material counts written after the last move (OGR 7.1.12-13).
    pub material: Vec<i32>,
}

impl Scoresheet {
    /// The value of a header tag, by name in any case.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
            .map(|t| t.value.as_str())
    }

    /// The move as written, e.g. `A1,3 - A4 x F2,15`.
    pub fn text(&self, ply: &WrittenPly) -> &str {
        self.source.get(ply.span.0..ply.span.1).unwrap_or("")
    }

    /// A comment's text, without its braces.
    pub fn comment(&self, span: (usize, usize)) -> &str {
        self.source.get(span.0..span.1).unwrap_or("")
    }

    /// The claimed result: the one written after the moves, else the
    /// `[Result]` tag.
    pub fn claimed_result(&self) -> Option<SheetResult> {
        self.result
            .or_else(|| self.tag("Result").and_then(SheetResult::parse))
    }

    /// Line and column (1-based, columns in characters) of a byte offset.
    pub fn line_column(&self, offset: usize) -> (u32, u32) {
        line_column(&self.source, offset)
    }
}

fn line_column(source: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(source.len());
    let before = &source.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let column = source
        .get(start..offset)
        .map_or(offset - start, |s| s.chars().count()) as u32
        + 1;
    (line, column)
}

fn is_dash(c: char) -> bool {
    matches!(c, '-' | '\u{2013}' | '\u{2014}' | '\u{2212}')
}

fn is_cross(c: char) -> bool {
    matches!(c, 'x' | 'X' | '\u{00d7}')
}

/// Reads a scoresheet in either notation (or both mixed).
pub fn parse(text: &str) -> Result<Scoresheet, ParseError> {
    let mut p = Parser {
        src: text,
        pos: 0,
        spaced_shot_cow: None,
    };
    let mut sheet = Scoresheet {
        source: text.to_string(),
        ..Scoresheet::default()
    };
    sheet.plies.reserve(text.len() / 6);
    let mut number: Option<MoveNumber> = None;
    let mut ended = false; // a result or a material count has been read
    let mut last_shot_tail = None;
    loop {
        p.skip_space();
        let Some(c) = p.peek() else { break };
        let start = p.pos;
        match c {
            '{' => {
                let span = p.comment()?;
                match sheet.plies.last_mut() {
                    Some(ply) => ply.comments.push(span),
                    None => sheet.preamble.push(span),
                }
            }
            '[' if sheet.plies.is_empty() && number.is_none() => {
                sheet.tags.push(p.tag()?);
            }
            '0'..='9' | '\u{00bd}' => {
                if let Some(result) = p.result() {
                    if sheet.result.is_some() {
                        return Err(p.error_at(start, "the end of the scoresheet after the result"));
                    }
                    sheet.result = Some(result);
                    ended = true;
                    continue;
                }
                if ended {
                    return Err(p.error_at(
                        start,
                        "nothing after the result or material count but comments",
                    ));
                }
                number = Some(p.move_number()?);
            }
            '!' | '?' | '*' | '=' | '+' => {
                if c == '+' && p.peek_at(1).is_some_and(|d| d.is_ascii_digit()) {
                    p.bump();
                    let n = p.number()?;
                    sheet.material.push(n as i32);
                    ended = true;
                    continue;
                }
                let mut signs = String::new();
                while let Some(s @ ('!' | '?' | '*' | '=' | '+')) = p.peek() {
                    if s == '+' && p.peek_at(1).is_some_and(|d| d.is_ascii_digit()) {
                        break;
                    }
                    signs.push(s);
                    p.bump();
                }
                match sheet.plies.last_mut() {
                    Some(ply) if !ended => ply.annotation.push_str(&signs),
                    _ => return Err(p.error_at(start, "a move before the annotation")),
                }
            }
            c if is_dash(c) => {
                p.bump();
                p.skip_inline_space();
                if !p.peek().is_some_and(|d| d.is_ascii_digit()) || sheet.plies.is_empty() {
                    return Err(p.error_here("a move, a move number, a result or a comment"));
                }
                let n = p.number()?;
                sheet.material.push(-(n as i32));
                ended = true;
            }
            c if c.is_ascii_alphabetic() && matches!(c.to_ascii_lowercase(), 'a'..='g') => {
                if ended || sheet.result.is_some() {
                    return Err(p.error_at(
                        start,
                        "no move after a result or a material count (those come after the last move)",
                    ));
                }
                let mut ply = p.ply()?;
                ply.number = number.take();
                sheet.plies.push(ply);
                last_shot_tail = p.spaced_shot_cow.take();
            }
            c if is_cross(c) => {
                return Err(p.error_here("a move before the shot"));
            }
            _ => {
                return Err(p.error_here("a move, a move number, a result or a comment"));
            }
        }
    }
    if let (Some((end, n)), Some(last)) = (last_shot_tail, sheet.plies.last_mut()) {
        if let Some(shot) = last.shot.as_mut() {
            shot.cow = None;
            last.span.1 = end;
            sheet.material.insert(0, -(n as i32));
        }
    }
    Ok(sheet)
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    /// After the last ply read: a shot's cow number written ` -N`, and where
    /// the ply ends without it. OGR writes a shot's cow with a comma, so
    /// on the last move this is the material count of OGR 7.1.13.
    spaced_shot_cow: Option<(usize, u8)>,
}

impl Parser<'_> {
    /// The character at byte offset `at` and its length in bytes.
    #[inline]
    fn char_at(&self, at: usize) -> Option<(char, usize)> {
        let b = *self.src.as_bytes().get(at)?;
        if b < 0x80 {
            Some((b as char, 1))
        } else {
            let c = self.src.get(at..)?.chars().next()?;
            Some((c, c.len_utf8()))
        }
    }

    #[inline]
    fn peek(&self) -> Option<char> {
        self.char_at(self.pos).map(|(c, _)| c)
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        let mut at = self.pos;
        for _ in 0..n {
            at += self.char_at(at)?.1;
        }
        self.char_at(at).map(|(c, _)| c)
    }

    #[inline]
    fn bump(&mut self) {
        if let Some((_, len)) = self.char_at(self.pos) {
            self.pos += len;
        }
    }

    /// Skips white space, and the byte-order mark some editors write first.
    fn skip_space(&mut self) {
        while self
            .peek()
            .is_some_and(|c| c.is_whitespace() || c == '\u{feff}')
        {
            self.bump();
        }
    }

    fn skip_inline_space(&mut self) {
        let bytes = self.src.as_bytes();
        while matches!(bytes.get(self.pos), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    fn found(&self, at: usize) -> String {
        let rest = self.src.get(at..).unwrap_or("");
        match rest.chars().next() {
            None => "the end of the text".to_string(),
            Some(c) if c.is_whitespace() => "a line break or space".to_string(),
            Some(_) => {
                let token: String = rest
                    .chars()
                    .take_while(|c| !c.is_whitespace())
                    .take(12)
                    .collect();
                format!("'{token}'")
            }
        }
    }

    fn error_at(&self, at: usize, expected: &str) -> ParseError {
        let (line, column) = line_column(self.src, at);
        ParseError {
            line,
            column,
            expected: expected.to_string(),
            found: self.found(at),
        }
    }

    fn error_here(&self, expected: &str) -> ParseError {
        self.error_at(self.pos, expected)
    }

    /// `{...}`; returns the byte range inside the braces.
    fn comment(&mut self) -> Result<(usize, usize), ParseError> {
        let open = self.pos;
        self.bump();
        let start = self.pos;
        match self.src.get(start..).and_then(|s| s.find('}')) {
            Some(len) => {
                self.pos = start + len + 1;
                Ok((start, start + len))
            }
            None => Err(self.error_at(open, "a '}' closing this comment somewhere after it")),
        }
    }

    /// `[Name "value"]`.
    fn tag(&mut self) -> Result<Tag, ParseError> {
        self.bump();
        self.skip_inline_space();
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.bump();
        }
        if self.pos == start {
            return Err(self.error_here("a tag name such as Rules, Dark or Result"));
        }
        let name = self.src[start..self.pos].to_string();
        self.skip_inline_space();
        if self.peek() != Some('"') {
            return Err(self.error_here("a quoted tag value, e.g. \"gar\""));
        }
        self.bump();
        let offset = self.pos;
        let mut value = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => {
                    return Err(self.error_here("a '\"' closing the tag value"));
                }
                Some('"') => {
                    self.bump();
                    break;
                }
                Some('\\') => {
                    self.bump();
                    match self.peek() {
                        Some(c @ ('"' | '\\')) => {
                            value.push(c);
                            self.bump();
                        }
                        _ => value.push('\\'),
                    }
                }
                Some(c) => {
                    value.push(c);
                    self.bump();
                }
            }
        }
        self.skip_inline_space();
        if self.peek() != Some(']') {
            return Err(self.error_here("a ']' closing the tag"));
        }
        self.bump();
        Ok(Tag {
            name,
            value,
            offset,
        })
    }

    /// A result, if one starts here; otherwise the position is unchanged.
    fn result(&mut self) -> Option<SheetResult> {
        let start = self.pos;
        // The characters of the result so far, dashes folded to '-'.
        let mut seen = [0u8; 8];
        let mut n = 0;
        while let Some(c) = self.peek() {
            let folded = match c {
                '0'..='9' | '/' => c as u8,
                '\u{00bd}' => b'h',
                c if is_dash(c) => b'-',
                ' ' | '\t' => {
                    // `1 - 0` is a result too.
                    self.bump();
                    continue;
                }
                _ => break,
            };
            if n == seen.len() {
                break;
            }
            seen[n] = folded;
            n += 1;
            self.bump();
            let result = match &seen[..n] {
                b"1-0" => Some(SheetResult::DarkWins),
                b"0-1" => Some(SheetResult::LightWins),
                b"1/2-1/2" | b"h-h" => Some(SheetResult::Draw),
                _ => None,
            };
            // Do not take `1-0` out of `1-0x`: a result ends a token.
            if result.is_some() && !self.peek().is_some_and(|c| c.is_alphanumeric()) {
                return result;
            }
        }
        self.pos = start;
        None
    }

    /// Decimal digits as a number (saturating).
    fn number(&mut self) -> Result<u32, ParseError> {
        let bytes = self.src.as_bytes();
        let start = self.pos;
        let mut n: u32 = 0;
        while let Some(&d @ b'0'..=b'9') = bytes.get(self.pos) {
            n = n.saturating_mul(10).saturating_add((d - b'0') as u32);
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.error_here("a number"));
        }
        Ok(n)
    }

    /// `12.` or `12...` (or `12…`, or `12. ...`).
    fn move_number(&mut self) -> Result<MoveNumber, ParseError> {
        let n = self.number()?;
        if self.peek() != Some('.') {
            return Err(self.error_here("'.' after the move number (or a result such as 1-0)"));
        }
        let mut dots = 0;
        while self.peek() == Some('.') {
            dots += 1;
            self.bump();
        }
        if self.peek() == Some('\u{2026}') {
            dots += 3;
            self.bump();
        }
        if dots == 1 {
            // `12. ...` writes light's move with a space before the dots.
            let save = self.pos;
            self.skip_inline_space();
            if self
                .src
                .get(self.pos..)
                .is_some_and(|s| s.starts_with(".."))
            {
                while self.peek() == Some('.') {
                    self.bump();
                }
                dots = 3;
            } else if self.peek() == Some('\u{2026}') {
                self.bump();
                dots = 3;
            } else {
                self.pos = save;
            }
        }
        let side = if dots >= 2 { Side::Light } else { Side::Dark };
        Ok(MoveNumber { number: n, side })
    }

    /// A junction name.
    fn junction(&mut self) -> Result<Junction, ParseError> {
        let bytes = self.src.as_bytes();
        let at = self.pos;
        if let (Some(&c), Some(&r)) = (bytes.get(at), bytes.get(at + 1)) {
            if let Some(j) = Junction::from_coords(c, r) {
                // `a11` is not `a1` followed by a 1.
                if !bytes.get(at + 2).is_some_and(u8::is_ascii_digit) {
                    self.pos += 2;
                    return Ok(j);
                }
            }
        }
        Err(self.error_at(at, "a junction of the board (A1, D1, G1, B2, ... G7)"))
    }

    /// A cow number, 1-24.
    fn cow(&mut self) -> Result<u8, ParseError> {
        let start = self.pos;
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.error_here("a cow number (1-24)"));
        }
        let n = self.number()?;
        if !(1..=24).contains(&n) {
            return Err(self.error_at(start, "a cow number (1-24)"));
        }
        Ok(n as u8)
    }

    /// If a separator (`,` or a dash) followed by a cow number comes next,
    /// reads it; otherwise leaves the position where it was.
    fn optional_cow(&mut self, allow_dash: bool) -> Result<Option<u8>, ParseError> {
        let save = self.pos;
        self.skip_inline_space();
        match self.peek() {
            Some(',') => {
                self.bump();
                self.skip_inline_space();
                Ok(Some(self.cow()?))
            }
            Some(c) if allow_dash && is_dash(c) => {
                self.bump();
                self.skip_inline_space();
                if self.peek().is_some_and(|d| d.is_ascii_digit()) {
                    Ok(Some(self.cow()?))
                } else {
                    self.pos = save;
                    Ok(None)
                }
            }
            _ => {
                self.pos = save;
                Ok(None)
            }
        }
    }

    /// One ply: a placement, step or fly and its shot.
    fn ply(&mut self) -> Result<WrittenPly, ParseError> {
        let start = self.pos;
        self.spaced_shot_cow = None;
        let first = self.junction()?;
        let cow = self.optional_cow(true)?;
        let mut end = self.pos;
        let mut from = None;
        let mut to = WrittenCow {
            junction: first,
            cow,
        };

        // `-A4`: the first junction was where the cow came from.
        let save = self.pos;
        self.skip_inline_space();
        if self.peek().is_some_and(is_dash) {
            self.bump();
            self.skip_inline_space();
            if self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                let dest = self.junction()?;
                from = Some(to);
                to = WrittenCow {
                    junction: dest,
                    cow: None,
                };
                end = self.pos;
            } else {
                self.pos = save;
            }
        } else {
            self.pos = save;
        }

        // `x F2,15`.
        let save = self.pos;
        self.skip_inline_space();
        let mut shot = None;
        if self.peek().is_some_and(is_cross) {
            self.bump();
            self.skip_inline_space();
            let target = self.junction()?;
            let before = self.pos;
            let cow = self.optional_cow(true)?;
            let spaced_dash = self
                .src
                .get(before..self.pos)
                .is_some_and(|t| t.starts_with([' ', '\t']) && t.trim_start().starts_with(is_dash));
            if let (true, Some(n)) = (spaced_dash, cow) {
                self.spaced_shot_cow = Some((before, n));
            }
            shot = Some(WrittenCow {
                junction: target,
                cow,
            });
            end = self.pos;
        } else {
            self.pos = save;
        }
        Ok(WrittenPly {
            number: None,
            from,
            to,
            shot,
            annotation: String::new(),
            span: (start, end),
            comments: Vec::new(),
        })
    }
}

/// `ply` in the official style (OGR 6.2: `C5-1`, `A1,3-A4 x F2,15`),
/// played from `pos`: the cow numbers written on it where it has them,
/// else those of the cows on its junctions (and of the next cow placed),
/// as a player's record numbers them.
pub fn official(pos: &Position, ply: &WrittenPly) -> String {
    let mut out = String::new();
    let to = ply.to.junction.name();
    match ply.from {
        None => {
            let cow = ply.to.cow.or_else(|| pos.next_cow(pos.side())).unwrap_or(0);
            let _ = write!(out, "{to}-{cow}");
        }
        Some(from) => {
            let cow = from.cow.or_else(|| pos.cow_at(from.junction)).unwrap_or(0);
            let _ = write!(out, "{},{cow}-{to}", from.junction.name());
        }
    }
    if let Some(t) = ply.shot {
        let cow = t.cow.or_else(|| pos.cow_at(t.junction)).unwrap_or(0);
        let _ = write!(out, " x {},{cow}", t.junction.name());
    }
    out.push_str(&ply.annotation);
    out
}

/// Which notation [`write`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `C5-1`, `A1,3-A4`, `x F2,15` (OGR 6.2).
    Official,
    /// `c5`, `a1-a4`, `xf2`.
    Standard,
}

/// Writes a game as a scoresheet: an optional header with the rule set,
/// numbered moves, dark's and light's move of a number on one line, and the
/// result. The moves are replayed to learn the cow numbers the official
/// style writes, so they should be legal under `rules`.
pub fn write(
    rules: &PlayRules,
    moves: &[Move],
    style: Style,
    result: Option<SheetResult>,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "[Rules \"{}\"]", rules.name);
    if let Some(r) = result {
        let _ = writeln!(out, "[Result \"{}\"]", r.as_str());
    }
    out.push('\n');
    let mut game = Game::new(*rules);
    for (i, &mv) in moves.iter().enumerate() {
        let pos = &game.position;
        if pos.side() == Side::Dark || i == 0 {
            if i > 0 {
                out.push('\n');
            }
            let number = pos.ply() / 2 + 1;
            if pos.side() == Side::Dark {
                let _ = write!(out, "{number}. ");
            } else {
                let _ = write!(out, "{number}... ");
            }
        } else {
            out.push(' ');
        }
        let name = |j: Junction| match style {
            Style::Official => j.name().to_string(),
            Style::Standard => j.name().to_ascii_lowercase(),
        };
        match (style, mv.from) {
            (Style::Official, None) => {
                let cow = pos.next_cow(pos.side()).unwrap_or(0);
                let _ = write!(out, "{}-{}", name(mv.to), cow);
            }
            (Style::Official, Some(from)) => {
                let cow = pos.cow_at(from).unwrap_or(0);
                let _ = write!(out, "{},{}-{}", name(from), cow, name(mv.to));
            }
            (Style::Standard, None) => out.push_str(&name(mv.to)),
            (Style::Standard, Some(from)) => {
                let _ = write!(out, "{}-{}", name(from), name(mv.to));
            }
        }
        if let Some(t) = mv.shot {
            match style {
                Style::Official => {
                    let cow = pos.cow_at(t).unwrap_or(0);
                    let _ = write!(out, " x {},{}", name(t), cow);
                }
                Style::Standard => {
                    let _ = write!(out, "x{}", name(t));
                }
            }
        }
        game.play(mv);
    }
    if let Some(r) = result {
        if !moves.is_empty() {
            out.push(' ');
        }
        out.push_str(r.as_str());
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn j(s: &str) -> Junction {
        Junction::parse(s).unwrap()
    }

    #[test]
    fn reads_both_styles_with_shots_and_numbers() {
        let sheet =
            parse("1. C5-1 d5 2. A1,3 \u{2013} A4 x F2,15 a1-a4×F2 -2 {good} 3... e3xd5!? 1-0")
                .unwrap();
        let p = &sheet.plies;
        assert_eq!(p.len(), 5);
        assert_eq!(
            p[0].to,
            WrittenCow {
                junction: j("C5"),
                cow: Some(1)
            }
        );
        assert_eq!(
            p[0].number,
            Some(MoveNumber {
                number: 1,
                side: Side::Dark
            })
        );
        assert_eq!(
            p[1].to,
            WrittenCow {
                junction: j("D5"),
                cow: None
            }
        );
        assert_eq!(
            p[2].from,
            Some(WrittenCow {
                junction: j("A1"),
                cow: Some(3)
            })
        );
        assert_eq!(p[2].to.junction, j("A4"));
        assert_eq!(
            p[2].shot,
            Some(WrittenCow {
                junction: j("F2"),
                cow: Some(15)
            })
        );
        assert_eq!(sheet.text(&p[2]), "A1,3 \u{2013} A4 x F2,15");
        assert_eq!(
            p[3].shot,
            Some(WrittenCow {
                junction: j("F2"),
                cow: Some(2)
            })
        );
        assert_eq!(sheet.comment(p[3].comments[0]), "good");
        assert_eq!(
            p[4].number,
            Some(MoveNumber {
                number: 3,
                side: Side::Light
            })
        );
        assert_eq!(p[4].annotation, "!?");
        assert_eq!(sheet.result, Some(SheetResult::DarkWins));
    }

    #[test]
    fn material_counts_only_after_the_last_move() {
        let sheet = parse("d5-2 x E3,13 +1 \u{00bd}-\u{00bd}").unwrap();
        assert_eq!(sheet.material, [1]);
        assert_eq!(sheet.result, Some(SheetResult::Draw));
        let sheet = parse("d5-2 g7 - 1").unwrap();
        assert_eq!(
            sheet.plies[1].to.cow,
            Some(1),
            "-N after a junction is a cow"
        );
        let sheet = parse("d5-2 -1").unwrap();
        assert_eq!(sheet.material, [-1]);
        let sheet = parse("a1xd1 -2 b2 x c3 -2 1-0").unwrap();
        assert_eq!(
            sheet.plies[0].shot.unwrap().cow,
            Some(2),
            "not the last move"
        );
        assert_eq!(sheet.plies[1].shot.unwrap().cow, None, "OGR writes x C3,13");
        assert_eq!(sheet.text(&sheet.plies[1]), "b2 x c3");
        assert_eq!(sheet.material, [-2]);
        assert_eq!(
            parse("a1 x c3-2").unwrap().plies[0].shot.unwrap().cow,
            Some(2)
        );
        assert_eq!(parse("\u{feff}a1\r\nd1\r\n").unwrap().plies.len(), 2);
        let err = parse("a1 +1 d1").unwrap_err();
        assert_eq!((err.line, err.column), (1, 7));
    }

    #[test]
    fn header_tags_are_read() {
        let sheet =
            parse("[Rules \"official\"]\n[Dark \"A \\\"B\\\" C\"]\n\n1. a1 1/2-1/2").unwrap();
        assert_eq!(sheet.tag("rules"), Some("official"));
        assert_eq!(sheet.tag("Dark"), Some("A \"B\" C"));
        assert_eq!(sheet.claimed_result(), Some(SheetResult::Draw));
    }

    #[test]
    fn errors_name_line_column_and_expectation() {
        let err = parse("1. a1 d1\n2. d4").unwrap_err();
        assert_eq!((err.line, err.column), (2, 4));
        assert!(err.expected.contains("junction"), "{err}");
        assert_eq!(err.found, "'d4'");
        let err = parse("1. a1 {never closed").unwrap_err();
        assert_eq!((err.line, err.column), (1, 7));
        let err = parse("c5-25").unwrap_err();
        assert!(err.expected.contains("cow number"), "{err}");
        let err = parse("a1 x").unwrap_err();
        assert_eq!(err.found, "the end of the text");
    }

    #[test]
    fn writes_what_it_reads() {
        let rules = PlayRules::GAR;
        let mut game = Game::new(rules);
        let mut moves = Vec::new();
        for _ in 0..30 {
            let legal = game.legal_moves();
            let mv = legal[legal.len() / 3];
            game.play(mv);
            moves.push(mv);
        }
        for style in [Style::Official, Style::Standard] {
            let text = write(&rules, &moves, style, None);
            let sheet = parse(&text).unwrap();
            let read: Vec<Move> = sheet.plies.iter().map(WrittenPly::to_move).collect();
            assert_eq!(read, moves, "{text}");
        }
    }
}
