//! The six colours of the box and sets of them.

use std::fmt;

/// One of the six colours of the box, in the order of the rules' list
/// (red, orange, yellow, green, blue, violet; letters `R O Y G B V`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Colour {
    /// Red, `R`.
    Red = 0,
    /// Orange, `O`.
    Orange = 1,
    /// Yellow, `Y`.
    Yellow = 2,
    /// Green, `G`.
    Green = 3,
    /// Blue, `B`.
    Blue = 4,
    /// Violet, `V`.
    Violet = 5,
}

/// The number of colours of the box.
pub const COLOURS: usize = 6;

impl Colour {
    /// The six colours, in the rules' order.
    pub const ALL: [Colour; COLOURS] =
        [Colour::Red, Colour::Orange, Colour::Yellow, Colour::Green, Colour::Blue, Colour::Violet];

    /// Its place in [`Colour::ALL`] (0 to 5).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour at `index` in [`Colour::ALL`].
    #[inline]
    pub fn from_index(index: usize) -> Option<Colour> {
        Colour::ALL.get(index).copied()
    }

    /// Its letter: `R O Y G B V`.
    pub fn letter(self) -> char {
        b"ROYGBV"[self.index()] as char
    }

    /// The colour of a letter, in either case.
    pub fn from_letter(letter: char) -> Option<Colour> {
        match letter.to_ascii_uppercase() {
            'R' => Some(Colour::Red),
            'O' => Some(Colour::Orange),
            'Y' => Some(Colour::Yellow),
            'G' => Some(Colour::Green),
            'B' => Some(Colour::Blue),
            'V' => Some(Colour::Violet),
            _ => None,
        }
    }

    /// Its name in English, lowercase (`red`).
    pub fn name(self) -> &'static str {
        ["red", "orange", "yellow", "green", "blue", "violet"][self.index()]
    }

    /// Its letter as a string slice.
    pub fn letter_str(self) -> &'static str {
        ["R", "O", "Y", "G", "B", "V"][self.index()]
    }

    /// The ANSI escape that paints a background of this colour with a
    /// readable foreground (256-colour palette).
    pub(crate) fn ansi(self) -> &'static str {
        [
            "\x1b[1;97;48;5;160m",
            "\x1b[1;30;48;5;208m",
            "\x1b[1;30;48;5;226m",
            "\x1b[1;30;48;5;40m",
            "\x1b[1;97;48;5;27m",
            "\x1b[1;97;48;5;92m",
        ][self.index()]
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl serde::Serialize for Colour {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.letter_str())
    }
}

/// A set of colours (a bit per colour).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ColourSet(u8);

impl ColourSet {
    /// No colour.
    pub const EMPTY: ColourSet = ColourSet(0);

    /// The first `n` colours of the rules' list (the default colours in play).
    pub fn first(n: usize) -> ColourSet {
        ColourSet(((1u16 << n.min(COLOURS)) - 1) as u8)
    }

    /// Whether `c` is in the set.
    #[inline]
    pub fn contains(self, c: Colour) -> bool {
        self.0 & (1 << c.index()) != 0
    }

    /// The set with `c` added.
    #[inline]
    pub fn with(self, c: Colour) -> ColourSet {
        ColourSet(self.0 | (1 << c.index()))
    }

    /// The set without `c`.
    #[inline]
    pub fn without(self, c: Colour) -> ColourSet {
        ColourSet(self.0 & !(1 << c.index()))
    }

    /// The number of colours.
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The colours, in the rules' order.
    pub fn iter(self) -> impl Iterator<Item = Colour> {
        Colour::ALL.into_iter().filter(move |&c| self.contains(c))
    }

    /// The raw bits (bit `i` for [`Colour::ALL`]`[i]`).
    pub fn bits(self) -> u8 {
        self.0
    }

    /// Parse a list of colour letters (`RGBV`, `r,g,b,v`, `R G B V`): each
    /// letter once; commas, spaces and dashes are ignored.
    pub fn parse(text: &str) -> Result<ColourSet, String> {
        let mut set = ColourSet::EMPTY;
        for ch in text.chars() {
            if ch == ',' || ch == '-' || ch.is_whitespace() {
                continue;
            }
            let c = Colour::from_letter(ch).ok_or_else(|| {
                format!("{ch:?} is not a colour letter; the colours are R O Y G B V (red, orange, yellow, green, blue, violet)")
            })?;
            if set.contains(c) {
                return Err(format!("{} ({}) is named twice", c.letter(), c.name()));
            }
            set = set.with(c);
        }
        Ok(set)
    }
}

impl fmt::Display for ColourSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.iter() {
            write!(f, "{}", c.letter())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for c in Colour::ALL {
            assert_eq!(Colour::from_letter(c.letter()), Some(c));
            assert_eq!(Colour::from_letter(c.letter().to_ascii_lowercase()), Some(c));
            assert_eq!(Colour::from_index(c.index()), Some(c));
        }
        assert_eq!(Colour::from_letter('Z'), None);
    }

    #[test]
    fn sets() {
        assert_eq!(ColourSet::first(4).to_string(), "ROYG");
        assert_eq!(ColourSet::first(6).len(), 6);
        assert_eq!(ColourSet::parse("v, b-r g").unwrap().to_string(), "RGBV");
        assert!(ColourSet::parse("RR").unwrap_err().contains("twice"));
        assert!(ColourSet::parse("RX").unwrap_err().contains("not a colour"));
    }
}
