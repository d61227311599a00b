//! HTTP routes, MCP tools and HTTP client calls of Rust files: a pass after the main walk
//! (see `walk.rs`) over the files that mention a framework.
//!
//! Not yet written: the extraction of axum, actix-web and rocket routes, rmcp tools and
//! reqwest client calls lands here.

use crate::facts::FileFacts;
use tree_sitter::Tree;

/// Adds the file's endpoints, mounts and client calls to `facts`.
pub(super) fn extract(_text: &str, _tree: &Tree, _facts: &mut FileFacts) {}
