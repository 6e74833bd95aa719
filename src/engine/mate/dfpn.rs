//! Depth-first proof-number search (df-pn) for mates by checks.
use crate::shogi::{Move, MoveList, Position, solve_mate_in_one_in_place};

/// Proof and disproof numbers at or above this are infinite.
const INF: u32 = 1 << 28;

/// One position's proof and disproof numbers (the attacker's: `pn` 0 is a proven mate),
/// and for a proven position the length of its mate in plies.
#[derive(Debug, Clone, Copy)]
struct PnEntry {
    pn: u32,
    dn: u32,
    dist: u16,
}

/// Keys are Zobrist keys already: the table hashes them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type PnTable = std::collections::HashMap<u64, PnEntry, std::hash::BuildHasherDefault<KeyHasher>>;

/// What a df-pn search made of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proof {
    /// A forced mate by checks (of this many plies along the proof found).
    Mate(u32),
    /// No mate by checks within the length limit (repetitions count as escapes).
    NoMate,
    /// The node budget ran out first.
    Unknown,
}

/// A depth-first proof-number search (df-pn) for mates by checks: the attacker checks at
/// every move, the defender tries every legal evasion. Proof and disproof numbers grow
/// with the work a position still needs; the search always expands the most promising
/// position within thresholds, so a mate of many plies with few defences is proven with
/// far fewer nodes than an iterative search over every check. The table is kept between
/// calls (the attacker must be the same side), so the guard's searches after different
/// root moves share their work.
///
/// A position repeated on the current line is an escape (perpetual check is no mate), and
/// lines longer than the length limit are escapes; disproofs that rest on either are
/// stored like others, so the solver may miss a mate, but a proof is always a real mate
/// tree of legal moves ending in positions without a legal evasion (the core never drops
/// a pawn to mate).
pub struct Dfpn {
    table: PnTable,
    nodes: u64,
    budget: u64,
    max_plies: u32,
    path: Vec<u64>,
    aborted: bool,
    /// The checks or evasions of the node being expanded (copied into `kids` at once).
    scratch: MoveList,
    /// Per ply: the moves of the node expanded at that ply and the keys after them.
    kids: Vec<Vec<(Move, u64)>>,
}

impl Dfpn {
    /// A solver for mates of at most `max_plies` plies, `budget` expanded positions a call.
    pub fn new(budget: u64, max_plies: u32) -> Dfpn {
        Dfpn {
            table: PnTable::default(),
            nodes: 0,
            budget,
            max_plies,
            path: Vec::with_capacity(64),
            aborted: false,
            scratch: MoveList::new(),
            kids: Vec::new(),
        }
    }

    /// Positions expanded by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the side to move of `pos` mates by checks. `pos` is left as it was.
    pub fn prove(&mut self, pos: &mut Position) -> Proof {
        self.nodes = 0;
        self.aborted = false;
        self.path.clear();
        let (pn, dn) = self.mid(pos, INF - 1, INF - 1, true, 0);
        if pn == 0 {
            let d = self.table.get(&pos.key()).map_or(1, |e| e.dist as u32);
            Proof::Mate(d)
        } else if dn == 0 && !self.aborted {
            Proof::NoMate
        } else {
            Proof::Unknown
        }
    }

    /// The attacker's move of a proven mate at `pos` (the proven check with the shortest
    /// mate), after [`Dfpn::prove`] said [`Proof::Mate`].
    pub fn mating_move(&self, pos: &mut Position) -> Option<Move> {
        if let Some(m) = solve_mate_in_one_in_place(pos) {
            return Some(m);
        }
        let mut list = MoveList::new();
        pos.generate_checks(&mut list);
        let mut best: Option<(u16, Move)> = None;
        for &m in list.iter() {
            let undo = pos.play_unchecked(m);
            let e = self.table.get(&pos.key()).copied();
            pos.undo(m, undo);
            if let Some(e) = e
                && e.pn == 0
                && best.is_none_or(|(d, _)| e.dist < d)
            {
                best = Some((e.dist, m));
            }
        }
        best.map(|(_, m)| m)
    }

    /// A mating line from the proof at `pos` (attacker's shortest, defender's longest
    /// proven defence), at most `max` moves; empty when `pos` is not proven.
    pub fn line(&self, pos: &Position, max: usize) -> Vec<Move> {
        let mut p = pos.clone();
        let mut line = Vec::new();
        let mut seen = vec![p.key()];
        while line.len() < max {
            let Some(m) = self.mating_move(&mut p) else {
                break;
            };
            p.play_unchecked(m);
            line.push(m);
            let evasions = p.legal_moves();
            if evasions.is_empty() {
                return line;
            }
            let mut best: Option<(u16, Move)> = None;
            for &e in evasions.iter() {
                let undo = p.play_unchecked(e);
                let d = if solve_mate_in_one_in_place(&mut p).is_some() {
                    Some(1)
                } else {
                    self.table
                        .get(&p.key())
                        .filter(|x| x.pn == 0)
                        .map(|x| x.dist)
                };
                p.undo(e, undo);
                match d {
                    Some(d) if best.is_none_or(|(b, _)| d > b) => best = Some((d, e)),
                    Some(_) => {}
                    None => return Vec::new(),
                }
            }
            let Some((_, e)) = best else {
                return Vec::new();
            };
            p.play_unchecked(e);
            line.push(e);
            if seen.contains(&p.key()) {
                return Vec::new();
            }
            seen.push(p.key());
        }
        Vec::new()
    }

    fn store(&mut self, key: u64, pn: u32, dn: u32, dist: u16) {
        self.table.insert(key, PnEntry { pn, dn, dist });
    }

    /// Expand `pos` (attacker to move when `or`) until its numbers reach a threshold.
    fn mid(
        &mut self,
        pos: &mut Position,
        th_pn: u32,
        th_dn: u32,
        or: bool,
        ply: u32,
    ) -> (u32, u32) {
        let key = pos.key();
        if let Some(e) = self.table.get(&key)
            && (e.pn >= th_pn || e.dn >= th_dn)
        {
            return (e.pn, e.dn);
        }
        if self.nodes >= self.budget {
            self.aborted = true;
            return self.table.get(&key).map_or((1, 1), |e| (e.pn, e.dn));
        }
        self.nodes += 1;
        self.scratch.clear();
        if or {
            if solve_mate_in_one_in_place(pos).is_some() {
                self.store(key, 0, INF, 1);
                return (0, INF);
            }
            if ply + 3 > self.max_plies {
                // No mate of 3 or more plies fits: an escape (stored, although the limit
                // depends on where the position was met: the solver may miss a mate
                // through it, never invent one).
                self.store(key, INF, 0, 0);
                return (INF, 0);
            }
            pos.generate_checks(&mut self.scratch);
        } else {
            pos.generate_legal(&mut self.scratch);
        }
        if self.scratch.is_empty() {
            // No check: an escape; no evasion: mate.
            return if or {
                self.store(key, INF, 0, 0);
                (INF, 0)
            } else {
                self.store(key, 0, INF, 0);
                (0, INF)
            };
        }
        // The children's keys, once.
        let ply_index = ply as usize;
        while self.kids.len() <= ply_index {
            self.kids.push(Vec::new());
        }
        let mut kids = std::mem::take(&mut self.kids[ply_index]);
        kids.clear();
        for &m in self.scratch.iter() {
            let undo = pos.play_unchecked(m);
            kids.push((m, pos.key()));
            pos.undo(m, undo);
        }
        self.path.push(key);
        let result = loop {
            // Collect the children's numbers (a child on the line is an escape), each as
            // (phi, delta): the number this node minimises and the one it sums (pn and dn at
            // an OR node, dn and pn at an AND node).
            let flip = |a: u32, b: u32| if or { (a, b) } else { (b, a) };
            let mut best = usize::MAX;
            let (mut best_phi, mut best_delta) = (INF, INF);
            let mut second = INF;
            let mut sum: u64 = 0;
            let mut dist_min = u16::MAX;
            let mut dist_max = 0u16;
            for (i, &(_, k)) in kids.iter().enumerate() {
                let (pn, dn, dist) = if self.path.contains(&k) {
                    (INF, 0, 0)
                } else {
                    self.table
                        .get(&k)
                        .map_or((1, 1, 0), |e| (e.pn, e.dn, e.dist))
                };
                if or {
                    if pn == 0 {
                        dist_min = dist_min.min(dist);
                    }
                } else {
                    dist_max = dist_max.max(dist);
                }
                let (phi, delta) = flip(pn, dn);
                sum += delta as u64;
                if phi < best_phi {
                    second = best_phi;
                    best_phi = phi;
                    best_delta = delta;
                    best = i;
                } else if phi < second {
                    second = phi;
                }
            }
            let sum = sum.min(INF as u64) as u32;
            let (pn, dn) = flip(best_phi, sum);
            if pn == 0 {
                let dist = if or { dist_min } else { dist_max };
                self.store(key, 0, INF, dist.saturating_add(1));
                break (0, INF);
            }
            if dn == 0 {
                self.store(key, INF, 0, 0);
                break (INF, 0);
            }
            if pn >= th_pn || dn >= th_dn || self.aborted {
                self.store(key, pn, dn, 0);
                break (pn, dn);
            }
            let (m, _) = kids[best];
            let (th_phi, th_delta) = flip(th_pn, th_dn);
            let (cpn, cdn) = flip(
                th_phi.min(second.saturating_add(1)),
                (th_delta as u64 - sum as u64 + best_delta as u64).min(INF as u64) as u32,
            );
            let undo = pos.play_unchecked(m);
            self.mid(pos, cpn, cdn, !or, ply + 1);
            pos.undo(m, undo);
        };
        self.path.pop();
        self.kids[ply_index] = kids;
        result
    }
}
