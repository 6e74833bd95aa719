//! The fixture archive built into the binary, scanned when no input is given, so that a
//! first run anywhere shows a real result: a small multi-year set of server-style records
//! from the study's corpus generator, as one solid 7z block like a yearly download.
use super::Input;

/// The synthetic fixture set, packed as in `fixtures/synthetic/synthetic.7z`.
pub const SYNTHETIC_7Z: &[u8] = include_bytes!("../../fixtures/synthetic/synthetic.7z");

/// The inputs scanned when none is given.
pub fn bundled_inputs() -> Vec<Input> {
    vec![Input::Embedded {
        name: "fixtures/synthetic/synthetic.7z",
        bytes: SYNTHETIC_7Z,
    }]
}
