//! Closed sets of named values (systems, rule sets, rankings, ...) with one
//! spelling each: the same text is stored, typed in forms, sent in the API
//! and given on the command line.

/// `RuleSet` as "rule set".
fn words(kind: &str) -> String {
    let mut out = String::new();
    for (i, c) in kind.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push(' ');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// A name that is not one of a set's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[error("'{given}' is not a known {} ({known})", words(kind))]
pub struct UnknownName {
    /// The type's name (`RuleSet`), said in words in the message.
    pub kind: &'static str,
    pub given: String,
    pub known: String,
}

/// Declares a closed set of named values with one text spelling each.
macro_rules! named_values {
    ($(#[$doc:meta])* $name:ident { $($variant:ident => $text:literal, $label:literal;)+ }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
        #[serde(into = "&'static str")]
        pub enum $name { $($variant),+ }

        impl $name {
            /// Every value, in the order forms list them.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// Every value's spelling, in the same order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The stored and typed spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// The words a referee reads.
            pub fn label(self) -> &'static str {
                match self { $($name::$variant => $label),+ }
            }

            /// Reads the stored or typed spelling (case-insensitive).
            pub fn parse(s: &str) -> Option<$name> {
                let s = s.trim();
                $name::ALL.iter().copied().find(|v| v.as_str().eq_ignore_ascii_case(s))
            }
        }

        impl From<$name> for &'static str {
            fn from(v: $name) -> &'static str {
                v.as_str()
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::named::UnknownName;
            fn from_str(s: &str) -> Result<$name, Self::Err> {
                $name::parse(s).ok_or_else(|| $crate::named::UnknownName {
                    kind: stringify!($name),
                    given: s.trim().to_string(),
                    known: $name::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", "),
                })
            }
        }

        /// Reads a stored value (the database layer's `deserialize_as`):
        /// a value that is not one of the set is an error naming it, never
        /// a silent default.
        impl TryFrom<String> for $name {
            type Error = $crate::named::UnknownName;
            fn try_from(s: String) -> Result<$name, Self::Error> {
                s.parse()
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
