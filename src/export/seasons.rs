//! A season's table as CSV: rank, name, federation id, points, then per
//! event the points it gave (in brackets when dropped, as the page shows),
//! so a spreadsheet shows the same table.

use crate::db::seasons::Season;
use crate::director::seasons::Line;

pub fn csv(season: &Season, lines: &[Line]) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head = vec![
        "Rank".to_string(),
        "Name".into(),
        "Federation ID".into(),
        "Points".into(),
    ];
    head.extend(season.events.iter().map(|(_, name, _)| name.clone()));
    w.write_record(&head)?;
    for l in lines {
        let mut row = vec![
            l.rank.to_string(),
            l.person.name.clone(),
            l.person.federation_id.clone().unwrap_or_default(),
            points(l.points),
        ];
        for (tid, _, _) in &season.events {
            row.push(match l.results.iter().find(|r| r.0 == *tid) {
                Some(&(_, _, p, true)) => points(p),
                Some(&(_, _, p, false)) => format!("({})", points(p)),
                None => String::new(),
            });
        }
        w.write_record(&row)?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

/// Points as the page gives them: whole, or with the decimals an average
/// of shared places needs (at most two).
pub fn points(p: f64) -> String {
    let rounded = (p * 100.0).round() / 100.0;
    if rounded.fract() == 0.0 {
        format!("{}", rounded as i64)
    } else {
        let s = format!("{rounded:.2}");
        s.trim_end_matches('0').to_string()
    }
}
