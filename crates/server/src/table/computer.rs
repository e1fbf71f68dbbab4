//! The computer seats: a job on the computer players' pool when one must
//! move, and its answer played like a person's move.

use super::*;

impl Table {
    pub(super) fn maybe_start_ai(&mut self) {
        // A replica's computer seats play on their owner's instance.
        if self.ai.is_some() || self.row.status != Status::Live || self.role == Role::Replica {
            return;
        }
        let Turn::Seat(s) = self.m.to_move() else { return };
        let slot = &mut self.seats[s];
        if slot.kind != SeatKind::Computer {
            return;
        }
        let player = slot.player.take();
        let spec = slot.spec.clone().unwrap_or_else(|| "random".to_string());
        match self.ctx.pool.submit(&self.owner, player, &spec, self.m.clone_box()) {
            Ok(rx) => self.ai = Some(AiWait { seat: s, pos_version: self.pos_version, rx }),
            Err(e) => {
                // The player was dropped with the job: it is made again from
                // its spec next time. Ask again in a second.
                tracing::warn!("game {}: {e}; asking again in a second", self.row.id);
                self.ai_retry = Some(tokio::time::Instant::now() + Duration::from_secs(1));
            }
        }
    }

    pub(super) fn random_move(&self) -> Option<String> {
        let moves = self.m.legal_moves();
        let r = ids::random_u64().ok()?;
        if moves.is_empty() { None } else { Some(moves[(r % moves.len() as u64) as usize].clone()) }
    }

    pub(super) async fn ai_done(&mut self, (player, choice): JobResult) {
        let Some(wait) = self.ai.take() else { return };
        if let Some(p) = player {
            self.seats[wait.seat].player = Some(p);
        }
        if wait.pos_version != self.pos_version
            || self.row.status != Status::Live
            || self.m.to_move() != Turn::Seat(wait.seat)
        {
            self.maybe_start_ai();
            return;
        }
        let mv = match choice {
            Ok(c) => Some(c.mv),
            Err(e) => {
                tracing::warn!("game {}: computer player failed ({e}); playing a random move", self.row.id);
                self.random_move()
            }
        };
        let Some(mv) = mv else { return };
        match self.play(wait.seat, &mv, None).await {
            Ok(()) => {}
            Err(e) if e.code == "storage" => {
                tracing::error!("game {}: computer move not stored: {e}; trying again in a second", self.row.id);
                tokio::time::sleep(Duration::from_secs(1)).await;
                self.maybe_start_ai();
            }
            Err(e) => {
                tracing::warn!("game {}: computer move {mv} refused ({e}); playing a random move", self.row.id);
                if let Some(mv) = self.random_move()
                    && let Err(e) = self.play(wait.seat, &mv, None).await
                {
                    tracing::error!("game {}: random move {mv} refused: {e}", self.row.id);
                }
            }
        }
    }
}

pub(super) async fn wait_ai(ai: &mut Option<AiWait>) -> JobResult {
    match ai {
        Some(w) => (&mut w.rx).await.unwrap_or((None, Err("the computer player's thread stopped".to_string()))),
        None => std::future::pending().await,
    }
}
