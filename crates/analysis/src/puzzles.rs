//! Puzzles (written by the puzzles helper).
