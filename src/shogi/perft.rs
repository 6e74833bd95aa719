//! Perft: counting the leaves of the legal move tree, the standard correctness and speed
//! check of a move generator.

use super::{Move, MoveList, Position};

/// Leaf count at `depth`, every leaf move played and undone.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut n = 0;
    for &m in list.iter() {
        let u = pos.play_unchecked(m);
        n += if depth == 1 { 1 } else { perft(pos, depth - 1) };
        pos.undo(m, u);
    }
    n
}

/// Leaf count at `depth`, counting the legal list at the last level instead of playing it.
pub fn perft_bulk(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for &m in list.iter() {
        let u = pos.play_unchecked(m);
        n += perft_bulk(pos, depth - 1);
        pos.undo(m, u);
    }
    n
}

/// Leaf count at `depth` below each legal move (depth >= 1), in generation order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let list = pos.legal_moves();
    let mut out = Vec::with_capacity(list.len());
    for &m in list.iter() {
        let u = pos.play_unchecked(m);
        out.push((m, perft_bulk(pos, depth.saturating_sub(1))));
        pos.undo(m, u);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(sfen: &str, depth: u32) -> u64 {
        let mut p = Position::from_sfen(sfen).unwrap();
        let before = p.clone();
        let n = perft(&mut p, depth);
        assert_eq!(p, before);
        assert_eq!(perft_bulk(&mut p, depth), n);
        n
    }

    #[test]
    fn startpos_shallow() {
        let s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        assert_eq!(count(s, 1), 30);
        assert_eq!(count(s, 2), 900);
        assert_eq!(count(s, 3), 25_470);
        assert_eq!(count(s, 4), 719_731);
    }

    #[test]
    fn reference_positions() {
        assert_eq!(
            count("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 1),
            593
        );
        assert_eq!(
            count(
                "ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76",
                2
            ),
            445
        );
        let pin = "ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65";
        assert_eq!(count(pin, 1), 101);
        assert_eq!(count(pin, 2), 15_744);
        assert_eq!(count(pin, 3), 1_183_354);
        assert_eq!(
            count(
                "lnsgkgsnl/1r7/p1ppp1bpp/1p3pp2/7P1/2P6/PP1PPPP1P/1B3S1R1/LNSGKG1NL b - 9",
                3
            ),
            37_189
        );
        assert_eq!(
            count(
                "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
                2
            ),
            15_850
        );
        assert_eq!(
            count(
                "6n1l/2+S1k4/2lp4p/1np1B2b1/3PP4/1N1S3rP/1P2+pPP+p1/1p1G5/3KG2r1 b GSN2L4Pgs2p 1",
                2
            ),
            41_605
        );
        assert_eq!(
            count(
                "ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62",
                3
            ),
            864_786
        );
    }
}
