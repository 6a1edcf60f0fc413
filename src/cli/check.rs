//! `kraal check`: replays scoresheets and reports their irregularities.
//!
//! One sheet (a file, or `-` for standard input) gives its report as
//! before; several files, or a directory (its files, not its
//! subdirectories, in name order, hidden files left out), are checked in
//! parallel on every core and reported in the order given.

use crate::rules::{check_scoresheet, Report, RuleSet};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Arguments of `kraal check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Rule set: official or gar. Without it, the sheet's [Rules] tag, else gar.
    #[arg(long)]
    pub rules: Option<RuleSet>,
    /// Print JSON: one object for one sheet, an array for several.
    #[arg(long)]
    pub json: bool,
    /// One line per sheet and a total, instead of the full reports.
    #[arg(long, conflicts_with = "json")]
    pub summary: bool,
    /// Scoresheets or directories of them, or - for standard input.
    #[arg(required = true, num_args = 1..)]
    pub files: Vec<String>,
}

/// What became of one sheet.
enum Outcome {
    Checked(Box<Report>),
    /// The sheet could not be read (missing, not UTF-8, a reading error).
    Unreadable(String),
}

impl Outcome {
    /// 0 clean, 1 irregular or the result disagrees, 2 unreadable.
    fn status(&self) -> i32 {
        match self {
            Outcome::Checked(r) if r.is_clean() => 0,
            Outcome::Checked(_) => 1,
            Outcome::Unreadable(_) => 2,
        }
    }
}

fn check_one(name: &str, rules: Option<RuleSet>) -> Outcome {
    let bytes = if name == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map(|_| buf)
    } else {
        std::fs::read(name)
    };
    let text = match bytes {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => return Outcome::Unreadable("not UTF-8 text".into()),
        },
        Err(e) => return Outcome::Unreadable(e.to_string()),
    };
    match check_scoresheet(&text, rules) {
        Ok(report) => Outcome::Checked(Box::new(report)),
        Err(e) => Outcome::Unreadable(e.to_string()),
    }
}

/// The files named: each directory stands for its files.
fn expand(names: &[String]) -> Result<Vec<(String, bool)>, String> {
    let mut out = Vec::new();
    for name in names {
        let dir = name != "-" && std::path::Path::new(name).is_dir();
        if !dir {
            out.push((name.clone(), false));
            continue;
        }
        let entries = std::fs::read_dir(name).map_err(|e| format!("{name}: {e}"))?;
        let mut files: Vec<String> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
            .map(|e| e.path().to_string_lossy().into_owned())
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| (f, true)));
    }
    Ok(out)
}

/// Checks every file on all cores; outcomes in the order of `files`.
fn check_all(files: &[(String, bool)], rules: Option<RuleSet>) -> Vec<Outcome> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len().max(1));
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Outcome)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((name, _)) = files.get(i) else {
                            break;
                        };
                        mine.push((i, check_one(name, rules)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, o)| o).collect()
}

/// The one-line summary of a sheet.
fn summary_line(name: &str, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Unreadable(e) => format!("{name}: unreadable: {e}"),
        Outcome::Checked(r) => {
            let mut line = format!("{name}: {} plies, ", r.plies);
            match r.irregularities.len() {
                0 => line.push_str("clean"),
                1 => line.push_str("1 irregularity"),
                n => line.push_str(&format!("{n} irregularities")),
            }
            if r.result_agrees == Some(false) {
                line.push_str(", the claimed result disagrees with the board");
            }
            line
        }
    }
}

/// Runs the subcommand and returns the exit status, the worst of the
/// sheets: 0 when clean, 1 when there are irregularities or a claimed
/// result disagrees with the board, 2 when a sheet cannot be read.
pub fn run(args: CheckArgs) -> i32 {
    let files = match expand(&args.files) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("kraal check: {e}");
            return 2;
        }
    };
    if files.iter().filter(|(n, _)| n == "-").count() > 1 {
        eprintln!("kraal check: standard input (-) can be read only once");
        return 2;
    }
    if files.is_empty() {
        eprintln!("kraal check: no scoresheets in {}", args.files.join(", "));
        return 2;
    }
    let single = files.len() == 1 && !files[0].1;
    let outcomes = check_all(&files, args.rules);
    let worst = outcomes.iter().map(Outcome::status).max().unwrap_or(0);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = if args.summary {
        write_summary(&mut out, &files, &outcomes)
    } else if args.json {
        write_json(&mut out, &files, &outcomes, single)
    } else {
        write_reports(&mut out, &files, &outcomes, single)
    };
    if let Err(e) = written.and_then(|()| out.flush()) {
        eprintln!("kraal check: {e}");
        return 2;
    }
    worst
}

fn write_summary(
    out: &mut impl Write,
    files: &[(String, bool)],
    outcomes: &[Outcome],
) -> std::io::Result<()> {
    let mut counts = [0usize; 3];
    for ((name, _), o) in files.iter().zip(outcomes) {
        writeln!(out, "{}", summary_line(name, o))?;
        counts[o.status() as usize] += 1;
    }
    writeln!(
        out,
        "{} sheet{}: {} clean, {} with irregularities, {} unreadable",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        counts[0],
        counts[1],
        counts[2]
    )
}

fn write_json(
    out: &mut impl Write,
    files: &[(String, bool)],
    outcomes: &[Outcome],
    single: bool,
) -> std::io::Result<()> {
    if single {
        return match &outcomes[0] {
            Outcome::Checked(r) => {
                serde_json::to_writer_pretty(
                    &mut *out,
                    &crate::wording::rules::report_json(r, crate::wording::Lang::English),
                )?;
                writeln!(out)
            }
            Outcome::Unreadable(e) => {
                eprintln!("kraal check: {}: {e}", files[0].0);
                Ok(())
            }
        };
    }
    let list: Vec<serde_json::Value> = files
        .iter()
        .zip(outcomes)
        .map(|((name, _), o)| match o {
            Outcome::Checked(r) => {
                let mut v = crate::wording::rules::report_json(r, crate::wording::Lang::English);
                if let Some(obj) = v.as_object_mut() {
                    obj.insert("file".into(), serde_json::json!(name));
                }
                v
            }
            Outcome::Unreadable(e) => serde_json::json!({ "file": name, "error": e }),
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &list)?;
    writeln!(out)
}

fn write_reports(
    out: &mut impl Write,
    files: &[(String, bool)],
    outcomes: &[Outcome],
    single: bool,
) -> std::io::Result<()> {
    for ((name, _), o) in files.iter().zip(outcomes) {
        if !single {
            writeln!(out, "== {name}")?;
        }
        match o {
            Outcome::Checked(r) => write!(
                out,
                "{}",
                crate::wording::rules::report_text(r, crate::wording::Lang::English)
            )?,
            Outcome::Unreadable(e) => {
                if single {
                    eprintln!("kraal check: {name}: {e}");
                } else {
                    writeln!(out, "unreadable: {e}")?;
                }
            }
        }
    }
    Ok(())
}
