//! What the rate limits of the players' links (`kraal::web::limit`) hold in
//! memory: the process's resident size (`/proc/self/statm`, 4 KiB pages)
//! before and after a flood of requests, each through the limiter's public
//! entry point as a handler calls it.
//!
//!     cargo run --example limiter_memory -- distinct 100000
//!     cargo run --example limiter_memory -- full 1000
//!
//! `distinct N`: N views of a personal page, each from its own address with
//! its own made-up key (one new address and one new link counted each).
//! `full N`: N addresses each viewing one page 1,200 times in a minute (the
//! most an address may: every count full).
// An example's output is what it prints, and a measurement that cannot
// read its numbers has nothing to say.
#![allow(clippy::unwrap_used, clippy::print_stdout)]

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use actix_web::test::TestRequest;
use kraal::web::limit::Limiter;

fn resident_kib() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4
}

fn address(i: u32) -> SocketAddr {
    SocketAddr::new(IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + i)), 40_000)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let scenario = args.next().unwrap_or_else(|| "distinct".into());
    let count: u32 = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let limiter = Limiter::default();
    // Requests are made before the measurement starts so that what they
    // allocate in passing is already in the heap.
    let warm = TestRequest::default()
        .peer_addr(address(u32::MAX >> 8))
        .to_http_request();
    for i in 0..1_000 {
        let _ = limiter.personal(&format!("warm{i}"), &warm, false);
    }
    let before = resident_kib();
    let (mut taken, mut refused) = (0u64, 0u64);
    match scenario.as_str() {
        "distinct" => {
            for i in 0..count {
                let req = TestRequest::default()
                    .peer_addr(address(i))
                    .to_http_request();
                match limiter.personal(&format!("{i:032x}"), &req, false) {
                    Ok(()) => taken += 1,
                    Err(_) => refused += 1,
                }
            }
        }
        "full" => {
            for i in 0..count {
                let req = TestRequest::default()
                    .peer_addr(address(i))
                    .to_http_request();
                let key = format!("{i:032x}");
                for _ in 0..1_200 {
                    match limiter.personal(&key, &req, false) {
                        Ok(()) => taken += 1,
                        Err(_) => refused += 1,
                    }
                }
            }
        }
        other => panic!("unknown scenario '{other}' (distinct or full)"),
    }
    let after = resident_kib();
    println!(
        "{scenario} {count}: {taken} taken, {refused} refused; resident {before} KiB -> {after} KiB (+{} KiB)",
        after.saturating_sub(before)
    );
}
