//! What the search keeps per ply, shared by the searcher (which owns it) and the interior
//! nodes (which fill it): the frames of the current line and each ply's move lists.
use crate::engine::picker::PickerBuffers;
use crate::shogi::Move;

/// A score no search returns: no static evaluation (in check, or not needed).
pub(super) const NO_SCORE: i32 = i32::MIN / 2;

/// The move lists of one ply, kept from node to node so a node allocates nothing.
#[derive(Debug, Default)]
pub(super) struct PlyScratch {
    /// The move picker's lists.
    pub(super) picker: PickerBuffers,
    /// Moves with their ordering scores (quiescence, ProbCut).
    pub(super) scored: Vec<(Move, i32)>,
    /// The quiet moves tried so far (with their piece-to index).
    pub(super) quiets: Vec<(Move, u16)>,
    /// The captures tried so far (piece-to index, victim kind).
    pub(super) captures: Vec<(u16, usize)>,
}

impl PlyScratch {
    /// Lists with room for a position's moves.
    pub(super) fn new() -> PlyScratch {
        PlyScratch {
            picker: PickerBuffers::new(),
            scored: Vec::with_capacity(crate::shogi::MAX_MOVES),
            quiets: Vec::with_capacity(crate::shogi::MAX_MOVES),
            captures: Vec::with_capacity(64),
        }
    }
}

/// What the search keeps of each ply of the current line.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    /// The static evaluation at this ply ([`NO_SCORE`] in check or unknown).
    pub(super) static_eval: i32,
    /// The piece-to index of the move played from this ply (`None`: none yet, or a null
    /// move).
    pub(super) moved: Option<u16>,
    /// The move played from this ply was a null move.
    pub(super) null: bool,
    /// The move a singular-extension search leaves out here.
    pub(super) excluded: Option<Move>,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: NO_SCORE,
            moved: None,
            null: false,
            excluded: None,
        }
    }
}

/// Plies of [`Frame`]s kept before the root (the continuation histories look 4 back).
pub(super) const FRAME_OFFSET: usize = 4;
