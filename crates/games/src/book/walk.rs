//! The walk that enumerates a book's positions, each met once: what
//! [`positions`](super::positions) lists and what a packed book's reader
//! pairs with its scores.

use std::collections::HashSet;

use super::KeyHash;
use crate::solver::{Pos, Position, Shape, Word, winning_columns_in};

/// The positions of the first `depth` moves, each met once (one of each
/// mirror pair, the first the walk meets), in order of depth: each node
/// the position's counters, its parent's index and the column played from
/// there. The book holds those of `held`: the ones whose side to move
/// cannot complete a run at once. Moves are kept as the path to the root,
/// not as text: reading the shipped book builds none (it took three
/// quarters of the time to read it). A node is a position's counters and
/// its way back, not a whole [`Position`], which carries its frame's masks
/// (with whole positions, reading the depth-9 book peaked at 154 MB;
/// `tests/memory.rs` bounds it now).
///
/// The walk is on the narrowest word that holds the frame (`W`): on 7 x 6,
/// 64-bit words, whose play, mirror and run detection take a fraction of
/// the work of 128-bit ones, and nodes of 24 bytes instead of 40.
pub(super) struct PositionWalk<W> {
    /// The empty frame, for the positions of [`PositionWalk::position`].
    root: Position,
    pub(super) nodes: Vec<Node<W>>,
    /// The nodes of the positions the book holds (those of the last level
    /// only with [`Leaves::Kept`]).
    pub(super) held: Vec<u32>,
    /// The positions the book holds that the walk met.
    pub(super) met: usize,
}

/// Whether a [`PositionWalk`] keeps the positions of its last level as
/// nodes (to name them, or check their scores) or only meets them: the
/// walk of the shipped book, whose last level is most of its positions,
/// then holds a key for each, not a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Leaves {
    Kept,
    Met,
}

/// A position of a [`PositionWalk`]: its counters (the side to move's and
/// all), where the walk came from (the node of its parent, `u32::MAX` for
/// the root) and the column played: 24 bytes on 64-bit words; on 128-bit
/// ones, packed to an alignment of 8, 40 instead of 48 (its fields are only
/// read by value).
#[repr(C, packed(8))]
pub(super) struct Node<W> {
    current: W,
    pub(super) mask: W,
    parent: u32,
    column: u8,
}

impl<W: Word> PositionWalk<W> {
    /// The walk, or `None` as soon as the book would hold more than `most`
    /// (a packed book's header cannot make its reader enumerate without
    /// end). `held` is given each held position's symmetric key in the
    /// order of the book's entries (that of [`PositionWalk::held`], which
    /// with [`Leaves::Met`] lacks the last level).
    pub(super) fn new(
        shape: Shape,
        depth: usize,
        most: usize,
        leaves: Leaves,
        mut held: impl FnMut(W),
    ) -> Option<PositionWalk<W>> {
        let g = shape.geometry::<W>();
        let mirror = g.mirror_by_swaps();
        // Positions of different depths have different numbers of
        // counters, so two meet only within a level: the set of keys seen
        // is a level's.
        let mut seen: HashSet<W, KeyHash> = HashSet::default();
        let mut walk = PositionWalk {
            root: Position::new(shape),
            nodes: vec![Node {
                current: W::ZERO,
                mask: W::ZERO,
                parent: u32::MAX,
                column: 0,
            }],
            held: Vec::new(),
            met: 0,
        };
        // Held positions of the last level, when they are not kept as
        // nodes: their keys, given to `held` once the level before is.
        let mut last: Vec<W> = Vec::new();
        let mut level = 0..1;
        for d in 0..=depth {
            if level.is_empty() {
                break;
            }
            seen.clear();
            // The children are the last level, met rather than kept.
            let meet_children = leaves == Leaves::Met && d + 1 == depth;
            for i in level.clone() {
                let node = &walk.nodes[i];
                let p = Pos {
                    current: node.current,
                    mask: node.mask,
                    moves: d as i32,
                };
                // The mirror image, played into as the position is (column
                // c there is width - 1 - c here): a mirror a position, not
                // one a child.
                let mirrored = Pos {
                    current: mirror.apply(p.current),
                    mask: mirror.apply(p.mask),
                    moves: p.moves,
                };
                let wins = winning_columns_in(&g, &p);
                if wins == 0 {
                    if walk.met == most {
                        return None;
                    }
                    walk.met += 1;
                    walk.held.push(i as u32);
                    held(p.key().min(mirrored.key()));
                }
                if d == depth || d == shape.cells() as usize {
                    continue;
                }
                let possible = p.possible(&g);
                let possible_mirrored = mirrored.possible(&g);
                for c in 0..shape.width {
                    let bit = possible & g.column(c);
                    if bit != W::ZERO && wins >> c & 1 == 0 {
                        let child = p.play(bit);
                        let across = possible_mirrored & g.column(shape.width - 1 - c);
                        let key = child.key().min(mirrored.play(across).key());
                        if !seen.insert(key) {
                            continue;
                        }
                        if meet_children {
                            if winning_columns_in(&g, &child) == 0 {
                                if last.len() == most - walk.met {
                                    return None;
                                }
                                last.push(key);
                            }
                        } else {
                            walk.nodes.push(Node {
                                current: child.current,
                                mask: child.mask,
                                parent: i as u32,
                                column: c as u8,
                            });
                        }
                    }
                }
                if walk.nodes.len() - level.end > most.saturating_mul(shape.width) {
                    return None;
                }
            }
            level = level.end..walk.nodes.len();
            walk.met += last.len();
            last.drain(..).for_each(&mut held);
        }
        // The vectors grew by doubling: up to half of each is room never
        // used, which the book's map would sit beside.
        walk.nodes.shrink_to_fit();
        walk.held.shrink_to_fit();
        Some(walk)
    }

    /// The position of node `i`.
    pub(super) fn position(&self, i: u32) -> Position {
        let node = &self.nodes[i as usize];
        self.root
            .with_counters(node.current.to_u128(), node.mask.to_u128())
    }

    /// The moves of node `i`, as `cz solve` reads them.
    pub(super) fn moves(&self, mut i: u32) -> String {
        let mut columns = Vec::new();
        while i != u32::MAX {
            let node = &self.nodes[i as usize];
            if node.parent != u32::MAX {
                columns.push(usize::from(node.column));
            }
            i = node.parent;
        }
        columns.reverse();
        Position::moves_text(&columns)
    }
}
