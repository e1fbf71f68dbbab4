//! Perft: the number of leaf positions after exactly `depth` moves, counting
//! every legal move, for any game. Used to check move generation against known
//! figures and to measure its speed.

use crate::{State, Turn};

/// Buffers reused across a perft run, one move list per ply: no allocation in
/// the loop once they have grown.
struct Buffers<M>(Vec<Vec<M>>);

/// Leaf positions after `depth` moves from `state` (bulk counting at the last
/// ply).
pub fn perft<S: State>(state: &mut S, depth: u32) -> u64 {
    let mut bufs = Buffers((0..depth).map(|_| Vec::with_capacity(128)).collect());
    perft_rec(state, depth, &mut bufs.0)
}

fn perft_rec<S: State>(state: &mut S, depth: u32, bufs: &mut [Vec<S::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return state.count_moves() as u64;
    }
    let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
    state.legal_moves(buf);
    let mut total = 0;
    for &mv in buf.iter() {
        let undo = state.apply(mv);
        total += perft_rec(state, depth - 1, rest);
        state.undo(mv, undo);
    }
    total
}

/// Perft split by root move: each legal move with the leaf count below it, in
/// generation order.
pub fn divide<S: State>(state: &mut S, depth: u32) -> Vec<(S::Move, u64)> {
    if depth == 0 || state.to_move() == Turn::Over {
        return Vec::new();
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let undo = state.apply(mv);
            let n = perft(state, depth - 1);
            state.undo(mv, undo);
            (mv, n)
        })
        .collect()
}
