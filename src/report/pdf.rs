//! A PDF drawing backend for `plotters`: one page the size of the figure (one pixel of the
//! figure is one PDF point), vector lines, rectangles, polygons and circles, and text in
//! Helvetica, one of the standard 14 fonts every PDF reader has, so no font is embedded
//! and none need be installed. The file is PDF 1.4, uncompressed and plain ASCII (text
//! outside ASCII is written as octal escapes in WinAnsiEncoding), and the same drawing
//! gives the same bytes.
//!
//! Text is placed as the SVG backend places it (size / 1.24, the anchor's baseline at
//! 0.76 em below a top anchor and half an x-height below a centre anchor), with widths
//! from Helvetica's metrics so that centred and right-aligned text lines up. Transparency
//! uses an `ExtGState` per alpha value (`/CA` for strokes, `/ca` for fills).

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::fmt::Write as _;

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};

/// Advance widths of Helvetica for the printable ASCII characters 32 (space) to 126 (~),
/// in thousandths of the font size. Provenance: the `WX` values of Adobe's Core 14 AFM
/// file `Helvetica.afm` (Helvetica, version 002.000, 1997), for the glyphs WinAnsiEncoding
/// maps to these codes (39 is `quotesingle`, 96 is `grave`). Facts of the font's metrics,
/// typed in from the published table.
const HELVETICA_ASCII: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // 32-47
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 48-63
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // 64-79
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // 80-95
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // 96-111
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // 112-126
];
/// The width used for a character outside ASCII (that of a digit, the most common width).
const HELVETICA_OTHER: u16 = 556;
/// Helvetica's x-height (`XHeight` in the AFM), in thousandths of the font size.
const HELVETICA_X_HEIGHT: f64 = 523.0;
/// Helvetica's ascender and descender (`Ascender`, `Descender` in the AFM).
const HELVETICA_ASCENT: f64 = 718.0;
const HELVETICA_DESCENT: f64 = 207.0;
/// plotters' text size is 1.24 times the size the SVG backend writes.
const SIZE_SCALE: f64 = 1.24;

/// The WinAnsiEncoding code of a character, if it has one (ASCII and the Latin-1
/// characters from 160 on, which WinAnsiEncoding places at their own code, plus the
/// dashes, quotes and bullet of the 128-159 range).
fn win_ansi(c: char) -> Option<u8> {
    match c {
        ' '..='~' => Some(c as u8),
        '\u{a0}'..='\u{ff}' => Some(c as u32 as u8),
        '\u{2013}' => Some(0x96),
        '\u{2014}' => Some(0x97),
        '\u{2018}' => Some(0x91),
        '\u{2019}' => Some(0x92),
        '\u{201c}' => Some(0x93),
        '\u{201d}' => Some(0x94),
        '\u{2022}' => Some(0x95),
        '\u{2026}' => Some(0x85),
        '\u{2212}' => Some(b'-'),
        _ => None,
    }
}

/// The width of `text` in Helvetica at size 1 (characters without a WinAnsiEncoding code
/// are drawn as `?`).
pub fn helvetica_width(text: &str) -> f64 {
    text.chars()
        .map(|c| match win_ansi(c).unwrap_or(b'?') {
            b @ 32..=126 => HELVETICA_ASCII[(b - 32) as usize],
            _ => HELVETICA_OTHER,
        })
        .map(f64::from)
        .sum::<f64>()
        / 1000.0
}

/// `text` as a PDF literal string, parentheses included.
fn pdf_string(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    s.push('(');
    for c in text.chars() {
        match win_ansi(c).unwrap_or(b'?') {
            b @ (b'(' | b')' | b'\\') => {
                s.push('\\');
                s.push(b as char);
            }
            b @ 32..=126 => s.push(b as char),
            b => {
                let _ = write!(s, "\\{b:03o}");
            }
        }
    }
    s.push(')');
    s
}

/// A number as PDF writes it: at most three decimals, no trailing zeros.
fn num(v: f64) -> String {
    let v = (v * 1000.0).round() / 1000.0;
    if v == v.trunc() {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').to_string()
    }
}

/// The drawing state last set in the content stream, so that it is set only on a change.
#[derive(Default, PartialEq)]
struct State {
    stroke: Option<(u8, u8, u8)>,
    fill: Option<(u8, u8, u8)>,
    width: Option<u32>,
    /// Alpha in thousandths; `None` until set (the default is opaque).
    alpha: Option<u32>,
}

/// A `plotters` backend writing a one-page PDF into a byte buffer when presented (or
/// dropped).
pub struct PdfBackend<'a> {
    target: &'a mut Vec<u8>,
    size: (u32, u32),
    content: String,
    state: State,
    /// Alpha (thousandths) -> the name of its `ExtGState` resource.
    alphas: BTreeMap<u32, String>,
    saved: bool,
}

impl<'a> PdfBackend<'a> {
    /// A backend of `size` (width, height) pixels, one point each, writing into `target`.
    pub fn with_buffer(target: &'a mut Vec<u8>, size: (u32, u32)) -> Self {
        PdfBackend {
            target,
            size,
            content: String::new(),
            state: State::default(),
            alphas: BTreeMap::new(),
            saved: false,
        }
    }

    /// The PDF `y` of a figure `y`: PDF's origin is the bottom-left corner.
    fn y(&self, y: f64) -> f64 {
        self.size.1 as f64 - y
    }

    fn point(&self, (x, y): BackendCoord) -> String {
        format!("{} {}", num(x as f64), num(self.y(y as f64)))
    }

    fn set_alpha(&mut self, color: BackendColor) {
        let a = (color.alpha.clamp(0.0, 1.0) * 1000.0).round() as u32;
        if self.state.alpha == Some(a) || (self.state.alpha.is_none() && a == 1000) {
            return;
        }
        let n = self.alphas.len();
        let name = self
            .alphas
            .entry(a)
            .or_insert_with(|| format!("GS{n}"))
            .clone();
        let _ = writeln!(self.content, "/{name} gs");
        self.state.alpha = Some(a);
    }

    fn set_stroke(&mut self, color: BackendColor, width: u32) {
        self.set_alpha(color);
        if self.state.stroke != Some(color.rgb) {
            let (r, g, b) = color.rgb;
            let _ = writeln!(
                self.content,
                "{} {} {} RG",
                num(r as f64 / 255.0),
                num(g as f64 / 255.0),
                num(b as f64 / 255.0)
            );
            self.state.stroke = Some(color.rgb);
        }
        if self.state.width != Some(width) {
            let _ = writeln!(self.content, "{width} w");
            self.state.width = Some(width);
        }
    }

    fn set_fill(&mut self, color: BackendColor) {
        self.set_alpha(color);
        if self.state.fill != Some(color.rgb) {
            let (r, g, b) = color.rgb;
            let _ = writeln!(
                self.content,
                "{} {} {} rg",
                num(r as f64 / 255.0),
                num(g as f64 / 255.0),
                num(b as f64 / 255.0)
            );
            self.state.fill = Some(color.rgb);
        }
    }

    /// The whole PDF file: catalog, page tree, page, font, content stream, the
    /// cross-reference table with each object's byte offset, and the trailer.
    fn document(&self) -> Vec<u8> {
        let (w, h) = self.size;
        let mut gs = String::new();
        for (a, name) in &self.alphas {
            let a = num(*a as f64 / 1000.0);
            let _ = write!(gs, " /{name} << /Type /ExtGState /CA {a} /ca {a} >>");
        }
        let ext = if gs.is_empty() {
            String::new()
        } else {
            format!(" /ExtGState <<{gs} >>")
        };
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w} {h}] /Resources << /Font << /F1 4 0 R >>{ext} >> /Contents 5 0 R >>"
            ),
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
                .to_string(),
            format!(
                "<< /Length {} >>\nstream\n{}endstream",
                self.content.len(),
                self.content
            ),
        ];
        let mut out = String::from("%PDF-1.4\n");
        let mut offsets = Vec::with_capacity(objects.len());
        for (i, body) in objects.iter().enumerate() {
            offsets.push(out.len());
            let _ = write!(out, "{} 0 obj\n{body}\nendobj\n", i + 1);
        }
        let xref = out.len();
        let _ = write!(out, "xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
        for o in offsets {
            // 20 bytes an entry: the end of line is a space and a line feed.
            let _ = writeln!(out, "{o:010} 00000 n ");
        }
        let _ = write!(
            out,
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        );
        out.into_bytes()
    }
}

impl DrawingBackend for PdfBackend<'_> {
    type ErrorType = Infallible;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Infallible>> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Infallible>> {
        if !self.saved {
            *self.target = self.document();
            self.saved = true;
        }
        Ok(())
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        self.draw_rect(point, (point.0 + 1, point.1 + 1), &color, true)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        self.draw_path([from, to], style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        // As the SVG backend: an outline is 1 wide whatever the style's width.
        if fill {
            self.set_fill(color);
        } else {
            self.set_stroke(color, 1);
        }
        let (x0, y0) = upper_left;
        let (x1, y1) = bottom_right;
        let _ = writeln!(
            self.content,
            "{} {} {} {} re {}",
            num(x0 as f64),
            num(self.y(y1 as f64)),
            num((x1 - x0) as f64),
            num((y1 - y0) as f64),
            if fill { "f" } else { "S" }
        );
        self.saved = false;
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        let color = style.color();
        let points: Vec<BackendCoord> = path.into_iter().collect();
        if color.alpha == 0.0 || points.len() < 2 {
            return Ok(());
        }
        self.set_stroke(color, style.stroke_width());
        let mut ops = String::new();
        for (i, &p) in points.iter().enumerate() {
            let _ = write!(ops, "{} {} ", self.point(p), if i == 0 { "m" } else { "l" });
        }
        let _ = writeln!(self.content, "{ops}S");
        self.saved = false;
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        let color = style.color();
        let points: Vec<BackendCoord> = vert.into_iter().collect();
        if color.alpha == 0.0 || points.len() < 3 {
            return Ok(());
        }
        self.set_fill(color);
        let mut ops = String::new();
        for (i, &p) in points.iter().enumerate() {
            let _ = write!(ops, "{} {} ", self.point(p), if i == 0 { "m" } else { "l" });
        }
        let _ = writeln!(self.content, "{ops}h f");
        self.saved = false;
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        if fill {
            self.set_fill(color);
        } else {
            self.set_stroke(color, style.stroke_width());
        }
        // Four cubic Bezier arcs, the control points at 0.5523 r along the tangents.
        let (cx, cy) = (center.0 as f64, self.y(center.1 as f64));
        let r = radius as f64;
        let k = 0.552_284_75 * r;
        let p = |x: f64, y: f64| format!("{} {}", num(x), num(y));
        let _ = writeln!(
            self.content,
            "{} m {} {} {} c {} {} {} c {} {} {} c {} {} {} c {}",
            p(cx + r, cy),
            p(cx + r, cy + k),
            p(cx + k, cy + r),
            p(cx, cy + r),
            p(cx - k, cy + r),
            p(cx - r, cy + k),
            p(cx - r, cy),
            p(cx - r, cy - k),
            p(cx - k, cy - r),
            p(cx, cy - r),
            p(cx + k, cy - r),
            p(cx + r, cy - k),
            p(cx + r, cy),
            if fill { "f" } else { "S" }
        );
        self.saved = false;
        Ok(())
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        let color = style.color();
        if color.alpha == 0.0 || text.is_empty() {
            return Ok(());
        }
        self.set_fill(color);
        let size = style.size() / SIZE_SCALE;
        let width = helvetica_width(text) * size;
        let anchor = style.anchor();
        // The start of the baseline relative to the anchor, in the text's own frame with
        // y up (as the SVG backend's `text-anchor` and `dy`).
        let dx = match anchor.h_pos {
            HPos::Left => 0.0,
            HPos::Center => -width / 2.0,
            HPos::Right => -width,
        };
        let half_ex = 0.5 * HELVETICA_X_HEIGHT / 1000.0 * size;
        let dy = match anchor.v_pos {
            VPos::Top => -0.76 * size,
            VPos::Center => -half_ex,
            VPos::Bottom => half_ex,
        };
        // The SVG backend's rotate(90) turns clockwise on a y-down page: on PDF's y-up
        // page that is -90 degrees. (cos, sin) of the angle in PDF's frame:
        let (c, s) = match style.transform() {
            FontTransform::None => (1.0, 0.0),
            FontTransform::Rotate90 => (0.0, -1.0),
            FontTransform::Rotate180 => (-1.0, 0.0),
            FontTransform::Rotate270 => (0.0, 1.0),
        };
        let (ax, ay) = (pos.0 as f64, self.y(pos.1 as f64));
        let (ox, oy) = (ax + c * dx - s * dy, ay + s * dx + c * dy);
        let _ = writeln!(
            self.content,
            "BT /F1 {} Tf {} {} {} {} {} {} Tm {} Tj ET",
            num(size),
            num(c),
            num(s),
            num(-s),
            num(c),
            num(ox),
            num(oy),
            pdf_string(text)
        );
        self.saved = false;
        Ok(())
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<Infallible>> {
        let size = style.size() / SIZE_SCALE;
        let w = helvetica_width(text) * size;
        let h = (HELVETICA_ASCENT + HELVETICA_DESCENT) / 1000.0 * size;
        Ok((w.round() as u32, h.round() as u32))
    }
}

impl Drop for PdfBackend<'_> {
    fn drop(&mut self) {
        let _ = self.present();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(f: impl FnOnce(&mut PdfBackend<'_>)) -> String {
        let mut buf = Vec::new();
        {
            let mut b = PdfBackend::with_buffer(&mut buf, (200, 100));
            f(&mut b);
            b.present().unwrap();
        }
        String::from_utf8(buf).unwrap()
    }

    fn content(pdf: &str) -> &str {
        let start = pdf.find("stream\n").unwrap() + "stream\n".len();
        let end = pdf.find("endstream").unwrap();
        &pdf[start..end]
    }

    #[test]
    fn a_line_and_a_rect_in_pdf_coordinates() {
        let red = BackendColor {
            alpha: 1.0,
            rgb: (255, 0, 0),
        };
        let pdf = draw(|b| {
            b.draw_line((10, 20), (30, 40), &red).unwrap();
            b.draw_rect((5, 10), (25, 30), &red, true).unwrap();
        });
        // y is flipped: 20 -> 80, 40 -> 60; the rect's lower-left corner is (5, 100 - 30).
        assert_eq!(
            content(&pdf),
            "1 0 0 RG\n1 w\n10 80 m 30 60 l S\n1 0 0 rg\n5 70 20 20 re f\n"
        );
        assert!(pdf.contains("/MediaBox [0 0 200 100]"));
        let want = format!("<< /Length {} >>", content(&pdf).len());
        assert!(pdf.contains(&want), "{pdf}");
    }

    #[test]
    fn alpha_goes_through_an_ext_g_state() {
        let half = BackendColor {
            alpha: 0.5,
            rgb: (0, 0, 255),
        };
        let pdf = draw(|b| b.fill_polygon([(0, 0), (10, 0), (0, 10)], &half).unwrap());
        assert_eq!(
            content(&pdf),
            "/GS0 gs\n0 0 1 rg\n0 100 m 10 100 l 0 90 l h f\n"
        );
        assert!(pdf.contains("/ExtGState << /GS0 << /Type /ExtGState /CA 0.5 /ca 0.5 >> >>"));
        let none = BackendColor {
            alpha: 0.0,
            rgb: (0, 0, 0),
        };
        assert_eq!(
            content(&draw(|b| b.draw_line((0, 0), (1, 1), &none).unwrap())),
            ""
        );
    }

    #[test]
    fn strings_are_escaped_and_measured() {
        assert_eq!(pdf_string("a (b) \\ é ≥"), "(a \\(b\\) \\\\ \\351 ?)");
        // "Hi" = H 722 + i 222.
        assert!((helvetica_width("Hi") - 0.944).abs() < 1e-12);
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(-3.0), "-3");
        assert_eq!(num(1.0 / 3.0), "0.333");
    }
}
