//! The read-only web view of a code graph (`codegraph web`): pages rendered on the server from
//! one published snapshot, with graphs drawn as SVG by a layered layout. This crate knows
//! HTML and SVG, not HTTP: `codegraph-server` routes requests to it and owns the listener,
//! the guards and the roots.

pub mod html;
pub mod pages;
pub mod svg;

pub use html::Shell;
pub use pages::{Ctx, Page, PageError, Request, parse_request, render};
