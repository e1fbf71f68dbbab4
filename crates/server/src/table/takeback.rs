//! Takebacks, in casual games: a seated person who has moved asks
//! (`takeback_offer`); every other seated person accepts (`takeback_accept`;
//! computer seats accept at once) or one declines (`takeback_decline`).
//! Accepted, the moves from the end of the game back to the asker's last
//! move, that one included, are undone: one `takeback` event (`plies`), after
//! which the asker is to move again.
//!
//! One request stands at a time; `takeback_offers` lists the seats that want
//! it, the asker first. A move, the end of the game or a decline withdraws
//! it. A takeback changes the position (a move chosen before it is stale,
//! and a computer's search started before it is ignored when it answers:
//! `pos_version` moves on) and withdraws the draw offers.

use super::*;

/// How many moves to undo, from the end of the game, to take back `seat`'s
/// last move (`movers`: who made each move); `None` if `seat` has not moved.
pub(crate) fn plies_to_take_back(movers: &[Seat], seat: Seat) -> Option<usize> {
    movers.iter().rposition(|&s| s == seat).map(|i| movers.len() - i)
}

/// A stored event's part in takebacks, when a game is replayed: the request
/// standing (`offers`) and the moves a takeback undid. Call it for every
/// event, after the event's own replay.
pub(super) fn replay_event(
    m: &mut dyn AnyMatch,
    offers: &mut Vec<Seat>,
    draw_offers: &mut Vec<Seat>,
    e: &EventRow,
    game_id: &str,
) -> Result<(), ApiError> {
    match e.kind {
        EventKind::Move | EventKind::GameOver | EventKind::TakebackDecline => offers.clear(),
        EventKind::TakebackOffer => *offers = e.seat.into_iter().collect(),
        EventKind::TakebackAccept => {
            if let Some(s) = e.seat
                && !offers.contains(&s)
            {
                offers.push(s);
            }
        }
        EventKind::Takeback => {
            let plies = serde_json::from_str::<Value>(&e.data).ok().and_then(|d| d["plies"].as_u64()).unwrap_or(0);
            if plies == 0 || plies > m.ply() as u64 {
                return Err(ApiError::internal(format!(
                    "stored game {game_id}: takeback {} of {plies} moves, at move {}",
                    e.version,
                    m.ply()
                )));
            }
            if !catch(|| (0..plies).all(|_| m.undo()))? {
                return Err(ApiError::internal(format!("stored game {game_id}: takeback {} failed", e.version)));
            }
            offers.clear();
            draw_offers.clear();
        }
        _ => {}
    }
    Ok(())
}

impl Table {
    /// Takebacks are for casual games in play.
    fn takeback_allowed(&self) -> Result<(), ApiError> {
        if self.row.rated {
            return Err(ApiError::conflict("rated_game", "moves cannot be taken back in a rated game"));
        }
        if self.row.status != Status::Live || self.m.outcome().is_some() {
            return Err(self.not_live());
        }
        Ok(())
    }

    pub(super) async fn takeback_offer(&mut self, seat: Seat) -> Result<(), ApiError> {
        self.takeback_allowed()?;
        match self.takeback_offers.first() {
            Some(&asker) if asker == seat => {
                return Err(ApiError::conflict("already_offered", "you have already asked for a takeback"));
            }
            Some(&asker) => {
                return Err(ApiError::conflict(
                    "takeback_pending",
                    format!("{} has asked for a takeback: accept or decline it first", self.m.seat_name(asker)),
                ));
            }
            None => {}
        }
        if plies_to_take_back(&self.m.movers(), seat).is_none() {
            return Err(ApiError::conflict(
                "nothing_to_take_back",
                "you have not moved yet: there is nothing to take back",
            ));
        }
        self.takeback_agreed(vec![seat], (EventKind::TakebackOffer, Some(seat), String::new())).await
    }

    pub(super) async fn takeback_accept(&mut self, seat: Seat) -> Result<(), ApiError> {
        self.takeback_allowed()?;
        let asked_by_another = self.takeback_offers.first().is_some_and(|&a| a != seat);
        if !asked_by_another {
            return Err(ApiError::conflict("no_takeback_offer", "nobody has asked for a takeback"));
        }
        if self.takeback_offers.contains(&seat) {
            return Err(ApiError::conflict("already_offered", "you have already accepted the takeback"));
        }
        let mut offers = self.takeback_offers.clone();
        offers.push(seat);
        self.takeback_agreed(offers, (EventKind::TakebackAccept, Some(seat), String::new())).await
    }

    pub(super) async fn takeback_decline(&mut self, seat: Seat) -> Result<(), ApiError> {
        if self.row.status != Status::Live {
            return Err(self.not_live());
        }
        let asked_by_another = self.takeback_offers.first().is_some_and(|&a| a != seat);
        if !asked_by_another {
            return Err(ApiError::conflict("no_takeback_offer", "nobody has asked for a takeback"));
        }
        let rows = self.commit(vec![(EventKind::TakebackDecline, Some(seat), String::new())], Vec::new()).await?;
        self.takeback_offers.clear();
        self.publish(rows, false);
        Ok(())
    }

    /// `offers` now want the takeback (`ev`: the event saying so): done if
    /// every seated person is among them, else the request stands.
    async fn takeback_agreed(
        &mut self,
        offers: Vec<Seat>,
        ev: (EventKind, Option<Seat>, String),
    ) -> Result<(), ApiError> {
        let everyone = (0..self.seats.len()).all(|s| offers.contains(&s) || self.seats[s].kind == SeatKind::Computer);
        if !everyone {
            let rows = self.commit(vec![ev], Vec::new()).await?;
            self.takeback_offers = offers;
            self.publish(rows, false);
            return Ok(());
        }
        let asker = offers[0];
        let plies = plies_to_take_back(&self.m.movers(), asker)
            .ok_or_else(|| ApiError::internal("the asker of the takeback has no move to take back"))?;
        // Undone on a copy, kept once written: a refused write changes nothing.
        let mut m = self.m.clone_box();
        if !catch(|| (0..plies).all(|_| m.undo()))? {
            return Err(ApiError::internal("the moves could not be taken back"));
        }
        let takeback = (EventKind::Takeback, Some(asker), json!({ "plies": plies }).to_string());
        let rows = self.commit(vec![ev, takeback], Vec::new()).await?;
        self.m = m;
        self.takeback_offers.clear();
        self.draw_offers.clear();
        // The takeback changes `pos_version`: a computer's search started
        // before it is ignored when it answers (and asked again if that
        // computer is to move).
        self.publish(rows, false);
        self.maybe_start_ai();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_back_to_before_the_askers_last_move() {
        // Two players, the asker to move: its move and the answer.
        assert_eq!(plies_to_take_back(&[0, 1, 0, 1], 0), Some(2));
        // The opponent to move: the asker's move only.
        assert_eq!(plies_to_take_back(&[0, 1, 0, 1, 0], 0), Some(1));
        assert_eq!(plies_to_take_back(&[0], 0), Some(1));
        // Three players: everything since the asker's last move.
        assert_eq!(plies_to_take_back(&[0, 1, 2, 0, 1, 2], 1), Some(2));
        // A turn of several decisions: back to the asker's last decision.
        assert_eq!(plies_to_take_back(&[0, 0, 1, 1, 1], 0), Some(4));
        // Nothing to take back.
        assert_eq!(plies_to_take_back(&[], 0), None);
        assert_eq!(plies_to_take_back(&[0], 1), None);
    }
}
