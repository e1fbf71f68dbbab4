//! The configured game: number of players, deal, colours in play, golden rule;
//! its options and variants; the seeded set-up.

use plateau_core::rng::{below, setup_rng, shuffle};
use plateau_core::{ConfigError, Game, GameInfo, OptionKind, OptionSpec, Reader, Seat, Settings, VariantSpec};

use crate::colour::{COLOURS, Colour, ColourSet};
use crate::position::Position;
use crate::state::KabaleoState;

/// Bases of each colour in play.
pub const BASES_PER_COLOUR: usize = 4;
/// Pieces of each colour in play.
pub const PIECES_PER_COLOUR: usize = 6;

/// How the pieces are shared out at the start (option `deal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Deal {
    /// All pieces shuffled and dealt (2 to 4 players): 12, 10 or 9 each.
    Random,
    /// The same pieces for everyone (2 or 3 players): 3 of each colour with 2
    /// players, 2 of each colour with 3.
    Even,
}

impl Deal {
    /// The option's word for it.
    pub fn name(self) -> &'static str {
        match self {
            Deal::Random => "random",
            Deal::Even => "even",
        }
    }
}

/// Kabaleo, configured: the static facts of one game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Kabaleo {
    players: u8,
    deal: Deal,
    colours: ColourSet,
    golden_rule: bool,
}

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "players",
        help: "the number of players (2, 3 or 4); colours in play = players + 2",
        kind: OptionKind::Int { min: 2, max: 4 },
        default: "2",
        untrusted_max: None,
    },
    OptionSpec {
        name: "deal",
        help: "random: pieces shuffled and dealt (2-4 players); even: the same pieces for each (2-3 players)",
        kind: OptionKind::Choice(&["random", "even"]),
        default: "random",
        untrusted_max: None,
    },
    OptionSpec {
        name: "colours",
        help: "the colours in play as letters of R O Y G B V (e.g. RYBV), players + 2 of them; auto = the first ones",
        kind: OptionKind::Text,
        default: "auto",
        untrusted_max: None,
    },
    OptionSpec {
        name: "golden-rule",
        help: "a player may not play on the location where the previous piece was placed",
        kind: OptionKind::Bool,
        default: "false",
        untrusted_max: None,
    },
];

const VARIANTS: &[VariantSpec] = &[
    VariantSpec { name: "standard", help: "2 players, 4 colours, pieces dealt at random", options: &[] },
    VariantSpec {
        name: "3-players",
        help: "3 players, 5 colours, pieces dealt at random",
        options: &[("players", "3")],
    },
    VariantSpec {
        name: "4-players",
        help: "4 players, all 6 colours, pieces dealt at random",
        options: &[("players", "4")],
    },
    VariantSpec {
        name: "even",
        help: "2 players, 4 colours, 3 pieces of each colour each",
        options: &[("deal", "even")],
    },
    VariantSpec {
        name: "3-players-even",
        help: "3 players, 5 colours, 2 pieces of each colour each",
        options: &[("players", "3"), ("deal", "even")],
    },
];

/// The static description of Kabaleo.
pub static INFO: GameInfo = GameInfo {
    name: "kabaleo",
    title: "Kabaleo",
    summary: "2-4 players place coloured pieces on coloured bases; each wants their secret colour to show on the most locations",
    notation: "The colour letter and the location number: R7 places a red piece on location 7; pass when no placement is possible.",
    min_seats: 2,
    max_seats: 4,
    hidden: true,
    uses_seed: true,
    has_draws: true,
    variants: VARIANTS,
    options: OPTIONS,
};

impl Kabaleo {
    /// A game for `players` players (2 to 4), dealt by `deal`, with the colours
    /// `colours` in play (`None`: the first `players + 2` colours of the list).
    pub fn new(
        players: usize,
        deal: Deal,
        colours: Option<ColourSet>,
        golden_rule: bool,
    ) -> Result<Kabaleo, ConfigError> {
        if !(2..=4).contains(&players) {
            return Err(ConfigError::new(format!("Kabaleo is for 2 to 4 players, not {players}")));
        }
        if deal == Deal::Even && players == 4 {
            return Err(ConfigError::new(
                "the even deal is for 2 or 3 players: with 4 players the 6 pieces of each colour cannot be \
                 shared equally; use deal=random",
            ));
        }
        let wanted = players + 2;
        let colours = colours.unwrap_or_else(|| ColourSet::first(wanted));
        if colours.len() != wanted {
            return Err(ConfigError::new(format!(
                "option colours: {players} players play with {wanted} colours, but {} names {}",
                if colours.is_empty() { "(none)".to_string() } else { colours.to_string() },
                colours.len()
            )));
        }
        Ok(Kabaleo { players: players as u8, deal, colours, golden_rule })
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// How the pieces are dealt.
    pub fn deal(&self) -> Deal {
        self.deal
    }

    /// The colours in play.
    pub fn colours(&self) -> ColourSet {
        self.colours
    }

    /// Whether the golden rule is on.
    pub fn golden_rule(&self) -> bool {
        self.golden_rule
    }

    /// The number of locations (bases): 4 per colour in play.
    pub fn locations(&self) -> usize {
        BASES_PER_COLOUR * self.colours.len()
    }

    /// The number of pieces: 6 per colour in play.
    pub fn pieces(&self) -> usize {
        PIECES_PER_COLOUR * self.colours.len()
    }

    /// The set-up for `seed`, as parts. The draws, in this order, are part of
    /// the record format (a record's seed must rebuild the same game forever):
    /// 1. objectives: the colours in play (in the rules' order) are shuffled,
    ///    seat `s` gets the `s`-th;
    /// 2. bases: 4 of each colour in play, in the rules' order, shuffled; the
    ///    `i`-th is location `i + 1`;
    /// 3. pieces (random deal only): 6 of each colour in play, in the rules'
    ///    order, shuffled; seat `s` gets the `s`-th run of `pieces / players`;
    /// 4. the first player: `below(players)`.
    ///
    /// Every draw uses [`plateau_core::rng`] on `setup_rng(seed)`.
    fn setup(&self, seed: u64) -> Position {
        let mut rng = setup_rng(seed);
        let in_play: Vec<Colour> = self.colours.iter().collect();
        let n = self.players();

        let mut drawn = in_play.clone();
        shuffle(&mut rng, &mut drawn);
        let objectives: Vec<Colour> = drawn[..n].to_vec();

        let mut bases: Vec<Colour> = in_play.iter().flat_map(|&c| std::iter::repeat_n(c, BASES_PER_COLOUR)).collect();
        shuffle(&mut rng, &mut bases);

        let mut stocks = vec![[0u8; COLOURS]; n];
        match self.deal {
            Deal::Random => {
                let mut bag: Vec<Colour> =
                    in_play.iter().flat_map(|&c| std::iter::repeat_n(c, PIECES_PER_COLOUR)).collect();
                shuffle(&mut rng, &mut bag);
                let each = bag.len() / n;
                for (s, stock) in stocks.iter_mut().enumerate() {
                    for &c in &bag[s * each..(s + 1) * each] {
                        stock[c.index()] += 1;
                    }
                }
            }
            Deal::Even => {
                for stock in stocks.iter_mut() {
                    for &c in &in_play {
                        stock[c.index()] = (PIECES_PER_COLOUR / n) as u8;
                    }
                }
            }
        }
        let first = below(&mut rng, n as u64) as Seat;
        Position {
            golden_rule: self.golden_rule,
            bases,
            piles: Vec::new(),
            stocks,
            objectives,
            to_move: first,
            last_location: None,
        }
    }
}

/// The name of a seat: `Player1` to `Player4`, one word, as record tags
/// (which name a seat's player) require.
pub fn seat_name(seat: Seat) -> String {
    format!("Player{}", seat + 1)
}

impl Game for Kabaleo {
    type State = KabaleoState;

    const INFO: &'static GameInfo = &INFO;

    fn lessons() -> &'static [plateau_core::lesson::Lesson] {
        crate::lessons::LESSONS
    }

    fn configure(settings: &Settings) -> Result<Self, ConfigError> {
        let players = settings.int("players") as usize;
        let deal = match settings.text("deal") {
            "even" => Deal::Even,
            _ => Deal::Random,
        };
        let colours = match settings.text("colours") {
            t if t.eq_ignore_ascii_case("auto") || t.is_empty() => None,
            t => {
                let set = ColourSet::parse(t).map_err(|e| ConfigError::new(format!("option colours: {e}")))?;
                // Say it with the letters as the user typed them.
                let wanted = players + 2;
                if (2..=4).contains(&players) && set.len() != wanted {
                    return Err(ConfigError::new(format!(
                        "option colours: {players} players play with {wanted} colours, but {t} names {}",
                        set.len()
                    )));
                }
                Some(set)
            }
        };
        Kabaleo::new(players, deal, colours, settings.bool("golden-rule"))
    }

    fn seats(&self) -> usize {
        self.players()
    }

    fn seat_name(&self, seat: Seat) -> String {
        seat_name(seat)
    }

    fn start(&self, seed: u64) -> KabaleoState {
        KabaleoState::from_parts(&self.setup(seed)).expect("the set-up of a configured game is valid")
    }

    /// From the start nobody ever passes (every stock has the same size and a
    /// player with a piece can always place it), so a game is exactly one ply
    /// per piece.
    fn ply_bound(&self) -> Option<u64> {
        Some(self.pieces() as u64)
    }

    /// The start in the position text's form (see [`Position`]), its lines
    /// joined by ` ; `, without the lines a start does not need (no piles, no
    /// last placement, the golden rule is an option): the bases, one stock
    /// per seat, the objectives with `?` for those `reader` may not see, and
    /// the first player. Everything but the objectives is public.
    fn deal_text(&self, start: &KabaleoState, reader: Reader) -> Option<String> {
        let p = start.position();
        let objectives: Vec<String> = p
            .objectives
            .iter()
            .enumerate()
            .map(|(s, c)| if reader.may_see(s) { c.letter().to_string() } else { "?".to_string() })
            .collect();
        let text = p.to_string();
        let lines: Vec<String> = text
            .lines()
            .filter_map(|line| match line.split_whitespace().next() {
                Some("bases" | "stock" | "to-move") => Some(line.to_string()),
                Some("objectives") => Some(format!("objectives {}", objectives.join(" "))),
                _ => None,
            })
            .collect();
        Some(lines.join(" ; "))
    }

    /// The objectives written `?` drawn without replacement from the colours
    /// in play that no named objective takes (every such assignment is
    /// consistent with the rest: see `hidden.rs`), by a Fisher–Yates shuffle
    /// of `setup_rng(seed)`.
    fn complete_deal(&self, text: &str, seed: u64) -> Result<String, ConfigError> {
        // Checked first: the same errors as a start from it.
        self.start_from_deal(text)?;
        let mut parts: Vec<String> = text.split(';').map(|p| p.trim().to_string()).collect();
        let Some(i) = parts.iter().position(|p| p.starts_with("objectives")) else {
            return Err(ConfigError::new("deal: no objectives"));
        };
        let named: Vec<Option<Colour>> =
            parts[i].chars().skip("objectives".len()).filter(|c| !c.is_whitespace()).map(Colour::from_letter).collect();
        let mut pool: Vec<Colour> = self.colours.iter().filter(|c| !named.contains(&Some(*c))).collect();
        shuffle(&mut setup_rng(seed), &mut pool);
        let mut free = pool.into_iter();
        let filled: Vec<String> = named
            .iter()
            .map(|n| n.or_else(|| free.next()).map(|c| c.letter().to_string()).unwrap_or_default())
            .collect();
        parts[i] = format!("objectives {}", filled.join(" "));
        Ok(parts.join(" ; "))
    }

    fn start_from_deal(&self, text: &str) -> Result<(KabaleoState, Reader), ConfigError> {
        let bad = |m: String| ConfigError::new(format!("deal: {m}"));
        if text.len() > 1_000 {
            return Err(bad("longer than 1000 bytes".into()));
        }
        let mut known: Option<Vec<Option<Colour>>> = None;
        let mut lines = Vec::new();
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, rest) = part.split_once(char::is_whitespace).unwrap_or((part, ""));
            match key.to_ascii_lowercase().as_str() {
                "objectives" => {
                    let mut v = Vec::new();
                    for ch in rest.chars().filter(|c| !c.is_whitespace()) {
                        v.push(match ch {
                            '?' => None,
                            _ => Some(Colour::from_letter(ch).ok_or_else(|| {
                                bad(format!("{ch:?} is not a colour letter (R O Y G B V) or ? in the objectives"))
                            })?),
                        });
                    }
                    known = Some(v);
                }
                "bases" | "stock" | "to-move" => lines.push(part.to_string()),
                other => {
                    return Err(bad(format!("unknown key {other:?}; a deal has bases, stock, objectives and to-move")));
                }
            }
        }
        let known = known.ok_or_else(|| bad("no objectives".into()))?;
        let n = self.players();
        if known.len() != n {
            return Err(bad(format!("{} objectives for {n} players", known.len())));
        }
        // Fill the unknown objectives with the first colours no known one takes.
        let mut pool = self.colours;
        for c in known.iter().flatten() {
            pool = pool.without(*c);
        }
        let mut free = pool.iter();
        let filled: Vec<String> = known
            .iter()
            .map(|k| k.or_else(|| free.next()).map(|c| c.letter().to_string()).unwrap_or_else(|| "?".into()))
            .collect();
        lines.push(format!("objectives {}", filled.join(" ")));
        let mut p = Position::parse(&lines.join("\n")).map_err(|e| bad(e.to_string()))?;
        p.golden_rule = self.golden_rule;
        let colours = p.bases.iter().fold(ColourSet::EMPTY, |s, &c| s.with(c));
        if colours != self.colours {
            return Err(bad(format!("the bases are of {colours}, but this game plays with {}", self.colours)));
        }
        if p.stocks.len() != n {
            return Err(bad(format!("{} stocks for {n} players", p.stocks.len())));
        }
        let each = self.pieces() / n;
        for (s, stock) in p.stocks.iter().enumerate() {
            let count: usize = stock.iter().map(|&k| k as usize).sum();
            if count != each {
                return Err(bad(format!("player {} has {count} pieces; each has {each} at the start", s + 1)));
            }
            if self.deal == Deal::Even
                && self.colours.iter().any(|c| stock[c.index()] as usize != PIECES_PER_COLOUR / n)
            {
                return Err(bad(format!(
                    "player {} does not have {} pieces of each colour, as the even deal gives",
                    s + 1,
                    PIECES_PER_COLOUR / n
                )));
            }
        }
        let state = KabaleoState::from_position(&p).map_err(|e| bad(e.to_string()))?;
        let seen: Vec<Seat> = (0..n).filter(|&s| known[s].is_some()).collect();
        let reader = match seen.len() {
            0 => Reader::Spectator,
            1 => Reader::Seat(seen[0]),
            k if k == n => Reader::Referee,
            _ => {
                return Err(bad(
                    "it names one player's objective (what that player knows), all of them, or none".into()
                ));
            }
        };
        Ok((state, reader))
    }
}
