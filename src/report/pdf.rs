//! A PDF drawing backend for `plotters`: one page the size of the figure (one pixel of the
//! figure is one PDF point), vector lines, rectangles, polygons and circles, and text drawn
//! as the outlines of its glyphs, so that the file uses no font at all: nothing to embed,
//! nothing a reader or a printer must have, and `≥` or `→` print as they should. The
//! glyphs are those of DejaVu Sans (a subset of ASCII, Latin-1 and a few symbols,
//! `assets/fonts/`, read with `ttf-parser`); a character it lacks is drawn as `?`. The
//! document around the drawing is written by `pdf-writer`; the same drawing gives the same
//! bytes.
//!
//! Text is placed as the SVG backend places it (size / 1.24, the anchor's baseline at
//! 0.76 em below a top anchor and half an x-height below a centre anchor), with the
//! font's advance widths so that centred and right-aligned text lines up. Transparency
//! uses an `ExtGState` per alpha value (`/CA` for strokes, `/ca` for fills).

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::fmt::Write as _;
use std::sync::OnceLock;

use pdf_writer::{Name, Pdf, Rect, Ref};
use ttf_parser::{Face, GlyphId, OutlineBuilder};

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};

/// The font whose glyph outlines draw the text: a subset of DejaVu Sans (provenance and
/// licence in `assets/fonts/README.md`).
static FONT_DATA: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");

/// The parsed font (`None` only if the bundled file were broken: then no text is drawn).
fn font() -> Option<&'static Face<'static>> {
    static FACE: OnceLock<Option<Face<'static>>> = OnceLock::new();
    FACE.get_or_init(|| Face::parse(FONT_DATA, 0).ok()).as_ref()
}

/// plotters' text size is 1.24 times the size the SVG backend writes.
const SIZE_SCALE: f64 = 1.24;

/// The glyph of `c`, or of `?` where the font has none.
fn glyph(face: &Face<'_>, c: char) -> Option<GlyphId> {
    face.glyph_index(c).or_else(|| face.glyph_index('?'))
}

/// The advance width of `text` at size 1 (in ems).
pub fn text_width(text: &str) -> f64 {
    let Some(face) = font() else {
        return 0.0;
    };
    let em = f64::from(face.units_per_em());
    text.chars()
        .filter_map(|c| glyph(face, c))
        .map(|g| f64::from(face.glyph_hor_advance(g).unwrap_or(0)) / em)
        .sum()
}

/// A font metric in ems (x-height, ascender, descender).
fn metric(f: impl Fn(&Face<'_>) -> Option<i16>) -> f64 {
    font()
        .and_then(|face| f(face).map(|v| f64::from(v) / f64::from(face.units_per_em())))
        .unwrap_or(0.0)
}

/// Writes a glyph's outline as PDF path operators, mapping font units to the page: the
/// pen's origin `(x, y)`, the scale (points per unit) and the rotation `(cos, sin)`.
struct Outline<'s> {
    ops: &'s mut String,
    x: f64,
    y: f64,
    scale: f64,
    rot: (f64, f64),
    last: (f64, f64),
}

impl Outline<'_> {
    fn map(&self, x: f32, y: f32) -> (f64, f64) {
        let (u, v) = (f64::from(x) * self.scale, f64::from(y) * self.scale);
        let (c, s) = self.rot;
        (self.x + u * c - v * s, self.y + u * s + v * c)
    }
}

impl OutlineBuilder for Outline<'_> {
    fn move_to(&mut self, x: f32, y: f32) {
        let (px, py) = self.map(x, y);
        let _ = write!(self.ops, "{} {} m ", num(px), num(py));
        self.last = (px, py);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        let (px, py) = self.map(x, y);
        let _ = write!(self.ops, "{} {} l ", num(px), num(py));
        self.last = (px, py);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        // A quadratic Bezier as the cubic with the same curve.
        let (qx, qy) = self.map(x1, y1);
        let (px, py) = self.map(x, y);
        let (ox, oy) = self.last;
        let c1 = (ox + 2.0 / 3.0 * (qx - ox), oy + 2.0 / 3.0 * (qy - oy));
        let c2 = (px + 2.0 / 3.0 * (qx - px), py + 2.0 / 3.0 * (qy - py));
        let _ = write!(
            self.ops,
            "{} {} {} {} {} {} c ",
            num(c1.0),
            num(c1.1),
            num(c2.0),
            num(c2.1),
            num(px),
            num(py)
        );
        self.last = (px, py);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let (a, b) = (self.map(x1, y1), self.map(x2, y2));
        let (px, py) = self.map(x, y);
        let _ = write!(
            self.ops,
            "{} {} {} {} {} {} c ",
            num(a.0),
            num(a.1),
            num(b.0),
            num(b.1),
            num(px),
            num(py)
        );
        self.last = (px, py);
    }
    fn close(&mut self) {
        self.ops.push_str("h ");
    }
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

    /// The whole PDF file (written by `pdf-writer`): catalog, page tree, the page with its
    /// transparency states, and the content stream.
    fn document(&self) -> Vec<u8> {
        let (w, h) = self.size;
        let (catalog, pages, page, content) = (Ref::new(1), Ref::new(2), Ref::new(3), Ref::new(4));
        let states: Vec<(Ref, &u32, &String)> = self
            .alphas
            .iter()
            .enumerate()
            .map(|(i, (a, name))| (Ref::new(5 + i as i32), a, name))
            .collect();
        let mut pdf = Pdf::new();
        pdf.catalog(catalog).pages(pages);
        pdf.pages(pages).kids([page]).count(1);
        {
            let mut p = pdf.page(page);
            p.parent(pages)
                .media_box(Rect::new(0.0, 0.0, w as f32, h as f32))
                .contents(content);
            let mut resources = p.resources();
            let mut gs = resources.ext_g_states();
            for (r, _, name) in &states {
                gs.pair(Name(name.as_bytes()), *r);
            }
        }
        for (r, a, _) in &states {
            let a = **a as f32 / 1000.0;
            pdf.ext_graphics(*r).stroking_alpha(a).non_stroking_alpha(a);
        }
        pdf.stream(content, self.content.as_bytes());
        pdf.finish()
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
        let Some(face) = font() else {
            return Ok(());
        };
        self.set_fill(color);
        let size = style.size() / SIZE_SCALE;
        let width = text_width(text) * size;
        let anchor = style.anchor();
        // The start of the baseline relative to the anchor, in the text's own frame with
        // y up (as the SVG backend's `text-anchor` and `dy`).
        let dx = match anchor.h_pos {
            HPos::Left => 0.0,
            HPos::Center => -width / 2.0,
            HPos::Right => -width,
        };
        // The x-height: the font's own, else the top of its `x`.
        let x_height = metric(|f| {
            f.x_height()
                .or_else(|| Some(f.glyph_bounding_box(f.glyph_index('x')?)?.y_max))
        });
        let half_ex = 0.5 * x_height * size;
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
        let scale = size / f64::from(face.units_per_em());
        let mut ops = String::new();
        let mut pen = 0.0;
        for ch in text.chars() {
            let Some(g) = glyph(face, ch) else { continue };
            let mut outline = Outline {
                ops: &mut ops,
                x: ox + c * pen,
                y: oy + s * pen,
                scale,
                rot: (c, s),
                last: (0.0, 0.0),
            };
            face.outline_glyph(g, &mut outline);
            pen += f64::from(face.glyph_hor_advance(g).unwrap_or(0)) * scale;
        }
        if !ops.is_empty() {
            let _ = writeln!(self.content, "{ops}f");
        }
        self.saved = false;
        Ok(())
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<Infallible>> {
        let size = style.size() / SIZE_SCALE;
        let w = text_width(text) * size;
        let h = (metric(|f| Some(f.ascender())) - metric(|f| Some(f.descender()))) * size;
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

    fn draw(f: impl FnOnce(&mut PdfBackend<'_>)) -> Vec<u8> {
        let mut buf = Vec::new();
        {
            let mut b = PdfBackend::with_buffer(&mut buf, (200, 100));
            f(&mut b);
            b.present().unwrap();
        }
        buf
    }

    /// The page's content stream, read back with lopdf.
    fn content(pdf: &[u8]) -> String {
        let doc = lopdf::Document::load_mem(pdf).unwrap();
        let pages = doc.get_pages();
        assert_eq!(pages.len(), 1);
        let page = pages[&1];
        // lopdf ends each content stream it reads with a line feed of its own.
        let text = String::from_utf8(doc.get_page_content(page)).unwrap();
        text.strip_suffix('\n').unwrap_or(&text).to_string()
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
        let doc = lopdf::Document::load_mem(&pdf).unwrap();
        let page = doc.get_pages()[&1];
        let media = doc
            .get_dictionary(page)
            .unwrap()
            .get(b"MediaBox")
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_float().unwrap())
            .collect::<Vec<_>>();
        assert_eq!(media, [0.0, 0.0, 200.0, 100.0]);
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
        let doc = lopdf::Document::load_mem(&pdf).unwrap();
        let page = doc.get_pages()[&1];
        let (resources, _) = doc.get_page_resources(page).unwrap();
        let gs = resources
            .unwrap()
            .get(b"ExtGState")
            .unwrap()
            .as_dict()
            .unwrap();
        let state = doc
            .get_dictionary(gs.get(b"GS0").unwrap().as_reference().unwrap())
            .unwrap();
        assert_eq!(state.get(b"CA").unwrap().as_float().unwrap(), 0.5);
        assert_eq!(state.get(b"ca").unwrap().as_float().unwrap(), 0.5);
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
    fn text_is_drawn_as_glyph_outlines_with_the_font_widths() {
        // DejaVu Sans advances (2048 units an em, read with fontTools): H 1540, i 569,
        // ≥ 1716, ? 1087.
        assert!((text_width("Hi") - (1540.0 + 569.0) / 2048.0).abs() < 1e-12);
        assert!((text_width("≥") - 1716.0 / 2048.0).abs() < 1e-12);
        // A character outside the subset is a question mark.
        assert!((text_width("あ") - 1087.0 / 2048.0).abs() < 1e-12);
        use plotters::style::{BLACK, Color as _, IntoFont as _};
        let style = ("sans-serif", 12.4).into_font().color(&BLACK.to_rgba());
        let pdf = draw(|b| b.draw_text("a ≥ 31", &style, (10, 50)).unwrap());
        let text = content(&pdf);
        assert!(text.starts_with("0 0 0 rg\n"), "{text}");
        assert!(text.trim_end().ends_with(" f"), "{text}");
        assert!(text.contains(" c ") && text.contains(" h "), "{text}");
        assert!(!text.contains("BT") && !text.contains("Tj"), "{text}");
        let doc = lopdf::Document::load_mem(&pdf).unwrap();
        let page = doc.get_pages()[&1];
        assert!(doc.get_page_fonts(page).unwrap().is_empty());
    }
}
