//! The USI protocol: command parsing, options, and a session that runs searches on a
//! worker thread so that `stop` and `ponderhit` are heard while it thinks. Input lines come
//! from a reader thread through a channel; output goes through one shared writer so that
//! `info` and `bestmove` lines never interleave.
//!
//! Bad input never ends the session: an unreadable command, a bad option value, an
//! unreadable SFEN or an illegal move in `position` is answered with `info string ...`.
//! Nor does it hang a GUI: a search that has answered is over (the next `go` or
//! `setoption` is heard as between searches), a `go` during a search stops that search
//! (which answers) before starting, a table that cannot be allocated is refused with the
//! old one kept, and clock values too large for the arithmetic saturate.
//!
//! The files, by concern: `parser.rs` reads command text into a [`Command`] (and a
//! `position` command into a position), `options.rs` holds the [`Options`] and
//! `setoption`, `session.rs` the [`Session`] that runs the commands.

mod options;
mod parser;
mod session;

pub use options::{MAX_HASH_MB, OptionError, Options};
pub use parser::{
    Command, CommandError, PositionCommandError, PositionState, apply_position, parse_command,
};
pub use session::{Session, info_line, run};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_read_as_before() {
        let text = |line: &str| parse_command(line).unwrap_err().to_string();
        assert_eq!(text("fly"), "unknown command `fly`");
        assert_eq!(text("setoption USI_Hash"), "setoption: expected `name`");
        assert_eq!(text("setoption name value 1"), "setoption: empty name");
        assert_eq!(
            text("position startpos 7g7f"),
            "position startpos: unexpected tokens"
        );
        assert_eq!(
            text("position sfen 9/9 b"),
            "position sfen: incomplete SFEN"
        );
        assert_eq!(
            text("position banana"),
            "position: expected `startpos` or `sfen`"
        );
        assert_eq!(text("go depth"), "go: `depth` needs a value");
        assert_eq!(text("go btime x"), "go: bad value `x` for `btime`");
        assert_eq!(text("go mate soon"), "go: bad value `soon` for `mate`");
        assert_eq!(text("go sideways"), "go: unknown token `sideways`");

        let mut o = Options::default();
        let refusal =
            |o: &mut Options, name: &str, value: &str| o.set(name, value).unwrap_err().to_string();
        assert_eq!(
            refusal(&mut o, "USI_Hash", "lots"),
            "option USI_Hash: bad number `lots`"
        );
        assert_eq!(
            refusal(&mut o, "EnteringKingRule", "Rule99"),
            "option EnteringKingRule: unknown rule `Rule99`"
        );
        assert_eq!(
            refusal(&mut o, "Mode", "chess"),
            "unknown mode `chess` (search, decl24)"
        );
        assert_eq!(refusal(&mut o, "Colour", "blue"), "unknown option `Colour`");
        let missing = refusal(&mut o, "Weights", "/nonexistent/weights.txt");
        assert!(
            missing.starts_with("option Weights: cannot read `/nonexistent/weights.txt`: "),
            "{missing}"
        );

        let bad_sfen = apply_position(Some("9/9 b - 1"), &[]).unwrap_err();
        assert!(
            bad_sfen
                .to_string()
                .starts_with("position: bad SFEN `9/9 b - 1`: "),
            "{bad_sfen}"
        );
        let complaint = |moves: &[&str]| {
            let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            let (_, history, c) = apply_position(None, &moves).unwrap();
            (history.len(), c.unwrap().to_string())
        };
        assert_eq!(
            complaint(&["7g7f", "zz"]),
            (
                1,
                "position: unreadable move `zz` at ply 2: invalid USI move `zz`".to_string()
            )
        );
        let (kept, illegal) = complaint(&["7g7f", "3c3d", "5e5d"]);
        assert_eq!(kept, 2);
        assert!(
            illegal.starts_with("position: illegal move `5e5d` at ply 3: "),
            "{illegal}"
        );
    }
}
