//! TypeScript / JavaScript resolution: modules, import bindings, calls, heritage.
//! Being written: see issue 3.

use crate::resolved::Resolved;
use codegraph_db::{SourceFile, Workspace};

/// Resolves the imports, calls and type relations of one TS/TSX/JS file.
pub(crate) fn resolve_file(
    _db: &dyn salsa::Database,
    _workspace: Workspace,
    _file: SourceFile,
) -> Resolved {
    Resolved::default()
}
