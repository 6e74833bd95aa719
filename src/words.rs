//! The fixed words of the tables: each closed vocabulary (a game's `status`, its entering
//! class, the server's reason, the final-board comparison, a replay's ending) is an enum
//! with one name table, from which the words are written and against which they are read.
//!
//! `word_enum!` (crate-internal) defines such an enum: its variants with their words, `ALL`, `name`,
//! [`std::fmt::Display`], [`std::str::FromStr`] (an unknown word is an [`UnknownWord`])
//! and serde as the word.

/// A word that is none of its vocabulary's names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{word}` (one of {})", .expected.join(", "))]
pub struct UnknownWord {
    /// The vocabulary, e.g. `status`.
    pub what: &'static str,
    /// The word read.
    pub word: String,
    /// The vocabulary's words, in table order.
    pub expected: &'static [&'static str],
}

/// An enum of table words: `word_enum! { /// doc  pub enum Name("vocabulary") { /// doc
/// Variant => "word", ... } }`.
macro_rules! word_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident ($what:literal) {
            $( $(#[$vmeta:meta])* $variant:ident => $word:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every value, in table order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Every value's word, in the order of `ALL`.
            pub const NAMES: &'static [&'static str] = &[$($word),+];
            /// The vocabulary's name in messages.
            pub const WHAT: &'static str = $what;

            /// The value's word in the tables.
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $word),+
                }
            }
        }

        impl From<$name> for &'static str {
            fn from(v: $name) -> &'static str {
                v.name()
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::words::UnknownWord;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($word => Ok($name::$variant),)+
                    _ => Err($crate::words::UnknownWord {
                        what: $name::WHAT,
                        word: s.to_string(),
                        expected: $name::NAMES,
                    }),
                }
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(::serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use word_enum;

#[cfg(test)]
mod tests {
    use super::UnknownWord;

    word_enum! {
        /// A test vocabulary.
        enum Probe("probe") {
            /// One.
            One => "one",
            /// Two words.
            TwoWords => "two words",
        }
    }

    #[test]
    fn names_round_trip_and_unknown_words_are_named() {
        for &p in Probe::ALL {
            assert_eq!(p.name().parse::<Probe>(), Ok(p));
            assert_eq!(p.to_string(), p.name());
        }
        assert_eq!(Probe::NAMES, &["one", "two words"]);
        let e = "three".parse::<Probe>().unwrap_err();
        assert_eq!(
            e,
            UnknownWord {
                what: "probe",
                word: "three".into(),
                expected: &["one", "two words"]
            }
        );
        assert_eq!(
            e.to_string(),
            "unknown probe `three` (one of one, two words)"
        );
        // Words are exact: no trimming, no case folding.
        assert!(" one".parse::<Probe>().is_err());
        assert!("One".parse::<Probe>().is_err());
    }
}
