//! Random games for fuzzing and differential tests: a frame, moves mapped
//! onto mostly-legal columns, and at most one corruption, rendered to bytes.

use arbitrary::Arbitrary;

use crate::oracle::has_run;

/// A game built from arbitrary bytes (see [`ArbitraryGame::render`]).
#[derive(Arbitrary, Debug, Clone)]
pub struct ArbitraryGame {
    /// Columns, taken as 1 + width % 8.
    pub width: u8,
    /// Rows, taken as 1 + height % 8.
    pub height: u8,
    /// Winning run length, taken as 1 + connect % 6.
    pub connect: u8,
    /// Each picks one of the columns that still have room.
    pub moves: Vec<u8>,
    /// At most one fault to put in.
    pub corruption: Option<Corruption>,
    /// End lines with CRLF rather than LF.
    pub crlf: bool,
    /// Leave the last line without its terminator.
    pub no_final_newline: bool,
    /// Sizes of the chunks to feed a streaming judge (0 is read as 1).
    pub chunks: Vec<u8>,
}

/// One fault to put in a game.
#[derive(Arbitrary, Debug, Clone)]
pub enum Corruption {
    /// Replace the byte at `at` (modulo the length) with `byte`.
    Byte {
        /// Position.
        at: u16,
        /// New byte.
        byte: u8,
    },
    /// Insert an empty line before move `at`.
    BlankLine {
        /// Move index.
        at: u16,
    },
    /// Replace move `at` with a column `by + 1` beyond the frame.
    OutOfRange {
        /// Move index.
        at: u16,
        /// Distance beyond X, minus one.
        by: u8,
    },
    /// Insert, before move `at`, a move into a full column if there is one,
    /// else fill the first column beyond the top.
    Overfill {
        /// Move index.
        at: u16,
    },
    /// Do not stop at the first line: play these moves after it.
    ContinueAfterWin {
        /// More moves, mapped like the others.
        extra: Vec<u8>,
    },
}

impl ArbitraryGame {
    /// The frame (x, y, z).
    pub fn frame(&self) -> (u64, u64, u64) {
        (
            1 + u64::from(self.width % 8),
            1 + u64::from(self.height % 8),
            1 + u64::from(self.connect % 6),
        )
    }

    /// The columns played (1-based), before any corruption: each move picks a
    /// column with room; play stops at the first line unless told otherwise,
    /// and when the frame is full.
    pub fn columns(&self) -> Vec<u64> {
        let (x, y, z) = self.frame();
        let (x, y) = (x as usize, y as usize);
        let mut grid = vec![vec![0u8; y]; x];
        let mut heights = vec![0usize; x];
        let mut player = 1u8;
        let mut won = false;
        let extra: &[u8] = match &self.corruption {
            Some(Corruption::ContinueAfterWin { extra }) => extra,
            _ => &[],
        };
        let mut out = Vec::new();
        for &m in self.moves.iter().chain(extra) {
            if won && extra.is_empty() {
                break;
            }
            let open: Vec<usize> = (0..x).filter(|&c| heights[c] < y).collect();
            if open.is_empty() {
                break;
            }
            let c = open[usize::from(m) % open.len()];
            grid[c][heights[c]] = player;
            heights[c] += 1;
            out.push(c as u64 + 1);
            won = won || has_run(&grid, z as usize, player);
            player = 3 - player;
        }
        out
    }

    /// The file's bytes.
    pub fn render(&self) -> Vec<u8> {
        let (x, y, z) = self.frame();
        let mut lines: Vec<Vec<u8>> = vec![format!("{x} {y} {z}").into_bytes()];
        let mut columns = self.columns();
        match &self.corruption {
            Some(Corruption::OutOfRange { at, by }) if !columns.is_empty() => {
                let i = usize::from(*at) % columns.len();
                columns[i] = x + 1 + u64::from(*by);
            }
            Some(Corruption::Overfill { at }) => {
                let i = usize::from(*at) % (columns.len() + 1);
                let mut count = vec![0u64; x as usize + 1];
                for &c in &columns[..i] {
                    count[c as usize] += 1;
                }
                match (1..=x).find(|&c| count[c as usize] >= y) {
                    Some(full) => columns.insert(i, full),
                    None => columns
                        .splice(i..i, std::iter::repeat_n(1, y as usize + 1))
                        .for_each(drop),
                }
            }
            _ => {}
        }
        lines.extend(columns.iter().map(|c| c.to_string().into_bytes()));
        if let Some(Corruption::BlankLine { at }) = &self.corruption {
            let i = 1 + usize::from(*at) % lines.len();
            lines.insert(i, Vec::new());
        }
        let eol: &[u8] = if self.crlf { b"\r\n" } else { b"\n" };
        let mut out = Vec::new();
        for line in &lines {
            out.extend_from_slice(line);
            out.extend_from_slice(eol);
        }
        if self.no_final_newline {
            out.truncate(out.len() - eol.len());
        }
        if let Some(Corruption::Byte { at, byte }) = &self.corruption
            && !out.is_empty()
        {
            let i = usize::from(*at) % out.len();
            out[i] = *byte;
        }
        out
    }

    /// Chunk sizes for streaming, never zero and never empty.
    pub fn chunk_sizes(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> = self.chunks.iter().map(|&c| usize::from(c).max(1)).collect();
        if sizes.is_empty() {
            sizes.push(usize::MAX);
        }
        sizes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbitrary::Unstructured;

    #[test]
    fn smoke_renders_varied_games() {
        let mut lengths = std::collections::BTreeSet::new();
        let mut rng = connectz_rng::Rng::new(7);
        for _ in 0..200 {
            let data: Vec<u8> = (0..256).map(|_| rng.next_u64() as u8).collect();
            let game = ArbitraryGame::arbitrary(&mut Unstructured::new(&data)).unwrap();
            let bytes = game.render();
            assert!(!bytes.is_empty());
            lengths.insert(bytes.len());
        }
        assert!(
            lengths.len() > 10,
            "the generator produced too little variety"
        );
    }
}
