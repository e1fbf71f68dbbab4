//! Move generation benchmarks (filled in below).
fn main() {}
