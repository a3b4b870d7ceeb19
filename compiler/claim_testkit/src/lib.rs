//! What the tests and benchmarks generate: a small seeded generator
//! (`seeded`), so that a failure names a seed that reproduces it, and the
//! benchmark corpus (`corpus`): Claim, Rego and pytest doing the same
//! checks. A dev-dependency only: nothing the binaries ship uses it.

pub mod corpus;
pub mod seeded;
