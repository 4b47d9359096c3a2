//! The board of an input, drawn as `cz render` draws it, as an image of
//! the page.

use connectz::judge_bytes_with;
use connectz_explain::account::keeping_board;
use connectz_explain::render::{Excerpt, Picture, draw};

use crate::markup;

/// The board of an input, as an image of the SVG `cz render` draws.
pub(super) fn board(bytes: &[u8], title: &str) -> String {
    let report = judge_bytes_with(bytes, keeping_board());
    let excerpt = Excerpt::of(&report, bytes);
    let svg = draw(&Picture {
        report: &report,
        title,
        excerpt: excerpt.as_ref(),
    });
    let (width, height) = svg_size(&svg);
    format!(
        "<img class=\"board\" width=\"{width}\" height=\"{height}\" alt=\"{}\" src=\"data:image/svg+xml;base64,{}\">",
        markup(&format!("the board of {title}: code {}", report.code())),
        base64(svg.as_bytes())
    )
}

/// The width and height attributes of an SVG's root.
pub(super) fn svg_size(svg: &str) -> (u32, u32) {
    let attr = |name: &str| -> u32 {
        svg.split_once(&format!(" {name}=\""))
            .and_then(|(_, rest)| rest.split('"').next())
            .and_then(|v| v.parse::<f64>().ok())
            .map_or(0, |v| v.round() as u32)
    };
    (attr("width"), attr("height"))
}

/// Standard base64, padded.
pub(super) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> shift) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}
