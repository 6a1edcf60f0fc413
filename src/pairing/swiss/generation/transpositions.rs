//! Article 4.2: the transpositions of S2 in lexicographic order, for the
//! perfect candidate: the first transposition that pairs every S1 player
//! with a partner it may meet.

/// The first transposition of `s2` (Article 4.2, lexicographic) that
/// pairs every player of `s1` (in order) by `good`, or `None` if none
/// does. A perfect bipartite matching is kept throughout: S1 player by
/// player takes the first S2 player that still leaves one for the
/// others, found by one augmenting path per try.
pub(super) fn first_perfect_transposition(
    s1: &[usize],
    s2: &[usize],
    good: &dyn Fn(usize, usize) -> bool,
) -> Option<Vec<(usize, usize)>> {
    let h = s1.len();
    if s2.len() != h {
        return None;
    }
    let good = |a: usize, b: usize| good(s1[a], s2[b]);
    const FREE: usize = usize::MAX;
    let mut to2 = vec![FREE; h];
    let mut to1 = vec![FREE; h];
    // The S2 players are taken nearly in order: scans start at the
    // first one still free (greedy) or not yet fixed (the choices), so
    // that a bracket of thousands costs about linear time.
    let mut first_free = 0;
    for (a, partner) in to2.iter_mut().enumerate() {
        while first_free < h && to1[first_free] != FREE {
            first_free += 1;
        }
        if let Some(b) = (first_free..h).find(|&b| to1[b] == FREE && good(a, b)) {
            *partner = b;
            to1[b] = a;
        }
    }
    let mut fixed1 = vec![false; h];
    let mut fixed2 = vec![false; h];
    // Augments from the free S1 player `root` to a free S2 player,
    // through players not fixed (every S2 player before `from_b` is);
    // returns whether it did.
    let augment = |root: usize,
                   to2: &mut Vec<usize>,
                   to1: &mut Vec<usize>,
                   fixed1: &[bool],
                   fixed2: &[bool],
                   from_b: usize|
     -> bool {
        let mut seen2 = vec![false; h];
        let mut from = vec![FREE; h]; // S2 player -> the S1 player reaching it
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(a) = queue.pop_front() {
            for b in from_b..h {
                if seen2[b] || fixed2[b] || !good(a, b) {
                    continue;
                }
                seen2[b] = true;
                from[b] = a;
                if to1[b] == FREE {
                    // Flip the path back to the root.
                    let mut b = b;
                    loop {
                        let a = from[b];
                        let next = to2[a];
                        to2[a] = b;
                        to1[b] = a;
                        if a == root {
                            return true;
                        }
                        b = next;
                    }
                }
                let a2 = to1[b];
                if !fixed1[a2] {
                    queue.push_back(a2);
                }
            }
        }
        false
    };
    for a in 0..h {
        if to2[a] == FREE && !augment(a, &mut to2, &mut to1, &fixed1, &fixed2, 0) {
            return None;
        }
    }
    let mut first_open = 0;
    for a in 0..h {
        while first_open < h && fixed2[first_open] {
            first_open += 1;
        }
        for b in first_open..h {
            if fixed2[b] || !good(a, b) {
                continue;
            }
            if to2[a] == b {
                break;
            }
            // Take b from its partner a2, leaving a's partner b2 free,
            // and look for a path from a2 to b2 among the others.
            let (a2, b2) = (to1[b], to2[a]);
            let (save2, save1) = (to2.clone(), to1.clone());
            to2[a] = b;
            to1[b] = a;
            to2[a2] = FREE;
            to1[b2] = FREE;
            fixed1[a] = true;
            fixed2[b] = true;
            if augment(a2, &mut to2, &mut to1, &fixed1, &fixed2, first_open) {
                break;
            }
            fixed1[a] = false;
            fixed2[b] = false;
            to2 = save2;
            to1 = save1;
        }
        fixed1[a] = true;
        fixed2[to2[a]] = true;
    }
    Some((0..h).map(|a| (s1[a], s2[to2[a]])).collect())
}
