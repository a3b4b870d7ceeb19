//! Diagnostics: the data model, the stable codes with their explanations,
//! and the renderers.

pub mod codes;
pub mod diagnostic;
mod excerpt;
pub mod printable;
pub mod render;
pub mod sources;

pub use diagnostic::{and_list, did_you_mean, Diagnostic, Fix, Label, Severity};
pub use printable::printable;
pub use render::{render_human, HumanRenderer};
pub use sources::{NewFile, Sources};
