use kraal::pairing::sim::{self, SimConfig};
use kraal::pairing::swiss;
fn main() {
    let n: usize = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(11);
    let played: u32 = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(3);
    let cfg = SimConfig::plain(n, played, 7);
    let t = std::time::Instant::now();
    let input = sim::tournament(&cfg).unwrap();
    eprintln!("sim {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let r = swiss::pair_round(&input).unwrap();
    eprintln!("pair {:?}", t.elapsed());
    let sc = swiss::scores(&input.players);
    let tp = swiss::pairing_numbers(&input.players);
    if n <= 40 {
    for p in &r.pairs { println!("{:3} {:3}({:4},tpn{:3}) - {:3}({:4},tpn{:3}) {:?} {:?}", p.table, p.first, sc[&p.first], tp[&p.first], p.second, sc[&p.second], tp[&p.second], p.explanation.floats.len(), p.explanation.bent.iter().map(|b| &b.rule).collect::<Vec<_>>()); }
    for p in &input.players { if [14u32,6,3].contains(&p.id) { println!("{} {:?}", p.id, p.history); } }
    println!("bye {:?}", r.bye.as_ref().map(|b| (b.player, sc[&b.player])));
    }
}
#[allow(dead_code)]
fn dummy() {}
