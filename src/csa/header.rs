//! Header values: the game id and its parts, and the rating comment lines.
//!
//! The server builds the game id as `event+game_name+black+white+timestamp`; login names
//! never contain `+`, so splitting on `+` is safe. Rating lines carry a player id
//! (`name+md5`) and a float.

/// The parts of a game id (`$EVENT`, also the file name without `.csa`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameId {
    /// The whole id as written.
    pub id: String,
    /// Server event (`wdoor` on the public server).
    pub event: String,
    /// Game name: the time control part (`floodgate-300-10F`).
    pub game_name: String,
    /// Black's name as written in the id.
    pub black: String,
    /// White's name as written in the id.
    pub white: String,
    /// Timestamp `YYYYMMDDhhmmss` (made unique per server process, so it can run ahead
    /// of `$START_TIME`).
    pub timestamp: String,
}

impl GameId {
    /// Split an id into its parts; `None` when it has fewer than five `+`-separated parts.
    pub fn parse(id: &str) -> Option<GameId> {
        let (event, rest) = id.split_once('+')?;
        let (game_name, rest) = rest.split_once('+')?;
        let (rest, timestamp) = rest.rsplit_once('+')?;
        // With more than five parts the extra `+` belongs to a name; keep the outer fields
        // fixed and give the middle to the names.
        let (black, white) = rest.rsplit_once('+')?;
        if [event, game_name, white, timestamp]
            .iter()
            .any(|p| p.is_empty())
            || black.split('+').any(str::is_empty)
        {
            return None;
        }
        Some(GameId {
            id: id.to_string(),
            event: event.to_string(),
            game_name: game_name.to_string(),
            black: black.to_string(),
            white: white.to_string(),
            timestamp: timestamp.to_string(),
        })
    }

    /// Year of the timestamp, when it starts with four digits.
    pub fn year(&self) -> Option<i64> {
        let y = self.timestamp.get(0..4)?;
        if y.bytes().all(|b| b.is_ascii_digit()) {
            y.parse().ok()
        } else {
            None
        }
    }
}

/// A `'black_rate:` / `'white_rate:` line: `<player id>:<float>`.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingLine {
    /// Player id (`name+md5`).
    pub player_id: String,
    /// The rating, or `None` when the value does not parse.
    pub rate: Option<f64>,
}

/// Parse the value part of a rate line (after `'black_rate:` or `'white_rate:`).
pub fn parse_rate_line(value: &[u8]) -> RatingLine {
    let text = super::text::utf8_lossy(value);
    match text.rsplit_once(':') {
        Some((id, rate)) => RatingLine {
            player_id: id.to_string(),
            rate: rate.trim().parse::<f64>().ok().filter(|r| r.is_finite()),
        },
        None => RatingLine {
            player_id: text.into_owned(),
            rate: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_id_parts() {
        let g = GameId::parse("wdoor+floodgate-300-10F+alice+bob+20250423160002").unwrap();
        assert_eq!(g.event, "wdoor");
        assert_eq!(g.game_name, "floodgate-300-10F");
        assert_eq!(g.black, "alice");
        assert_eq!(g.white, "bob");
        assert_eq!(g.timestamp, "20250423160002");
        assert_eq!(g.year(), Some(2025));
        assert!(GameId::parse("wdoor+x+y").is_none());
        assert!(GameId::parse("a++b+c+d").is_none());
        assert!(GameId::parse("a+b+c+d").is_none());
        assert!(GameId::parse("a+b+c+d+").is_none());
        assert!(GameId::parse("a+b+c++d+e").is_none());
        // A name with a `+` in it: the middle parts.
        let g = GameId::parse("wdoor+g+al+ice+bob+2025").unwrap();
        assert_eq!((g.black.as_str(), g.white.as_str()), ("al+ice", "bob"));
    }

    #[test]
    fn rate_lines() {
        let r = parse_rate_line(b"alice+df33881b4a7bedbf35be78e1418a3186:3012.0");
        assert_eq!(r.player_id, "alice+df33881b4a7bedbf35be78e1418a3186");
        assert_eq!(r.rate, Some(3012.0));
        assert_eq!(parse_rate_line(b"x:-12.5").rate, Some(-12.5));
        assert_eq!(parse_rate_line(b"x:abc").rate, None);
        assert_eq!(parse_rate_line(b"x:NaN").rate, None);
        assert_eq!(parse_rate_line(b"garbage").rate, None);
    }
}
