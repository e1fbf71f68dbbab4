//! The random player: a uniformly random legal move.

use plateau_core::AnyMatch;
use plateau_core::rand::RngExt;

use crate::player::{AnyPlayer, Choice, PlayerError, SearchInfo};
use crate::spec::PlayerSpec;
use crate::{PlayerRng, player_rng};

/// Plays a uniformly random legal move. Legal moves are public in every game,
/// so it needs nothing but the match's move list.
pub struct Random {
    spec: PlayerSpec,
    rng: PlayerRng,
}

impl Random {
    /// A random player.
    pub fn new(spec: PlayerSpec) -> Self {
        let rng = player_rng(&spec);
        Random { spec, rng }
    }
}

impl AnyPlayer for Random {
    fn spec(&self) -> &PlayerSpec {
        &self.spec
    }
    fn choose(&mut self, m: &dyn AnyMatch) -> Result<Choice, PlayerError> {
        let moves = m.legal_moves();
        if moves.is_empty() {
            return Err(PlayerError::GameOver);
        }
        let mv = moves[self.rng.random_range(0..moves.len())].clone();
        Ok(Choice {
            mv: mv.clone(),
            info: SearchInfo { nodes: moves.len() as u64, pv: vec![mv], ..SearchInfo::default() },
        })
    }
}
