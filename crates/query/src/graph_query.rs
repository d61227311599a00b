//! The read-only graph query: one SQL `SELECT` an agent or a person writes against the
//! documented views of [`codegraph_schema::query_views`], answered from the reader's snapshot.
//!
//! Why SQL: agents write it well, SQLite already plans and runs it (joins, recursive walks
//! with `WITH RECURSIVE`, aggregates, JSON), and the views keep the surface stable while the
//! storage changes. What keeps it safe is the connection, not string checks: every read-only
//! [`crate::Store`] carries an authorizer and a progress handler that lie dormant until a graph
//! query arms them ([`QueryGuard`]). While armed, the authorizer lets a statement read only the
//! views (and the tables behind them, through the views), run functions, and recurse; any write,
//! `PRAGMA`, `ATTACH`, transaction or other table is refused at prepare time, and the progress
//! handler stops the statement at its deadline. Values are capped in length
//! (`SQLITE_LIMIT_LENGTH`) so no expression can build a huge string, and rows are capped by the
//! caller's budget.

use crate::error::QueryError;
use crate::read::Reader;
use codegraph_schema::ddl::EDGE_VIEW;
use codegraph_schema::query_views::{self, QUERY_VIEWS};
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::limits::Limit;
use rusqlite::types::ValueRef;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Virtual-machine steps between two looks at the clock.
const PROGRESS_STEPS: i32 = 4_000;

/// The longest string or blob an armed statement may build or return (bytes).
const MAX_VALUE_BYTES: i32 = 1 << 20;

/// What a graph query may spend.
#[derive(Clone, Debug)]
pub struct GraphQueryBudget {
    /// Rows returned at most (the answer says when there were more).
    pub max_rows: usize,
    /// Wall time after which the statement is stopped.
    pub timeout: Duration,
    /// Characters kept of each text value (longer ones are cut and marked).
    pub max_cell_chars: usize,
}

impl Default for GraphQueryBudget {
    fn default() -> Self {
        GraphQueryBudget { max_rows: 100, timeout: Duration::from_secs(5), max_cell_chars: 2_000 }
    }
}

/// One value of an answer row.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Null,
    Integer(i64),
    Real(f64),
    /// Text, cut to the budget's `max_cell_chars` (then `cut` is true).
    Text {
        text: String,
        cut: bool,
    },
    /// A blob, by its size (no view returns one; an expression can).
    Blob(usize),
}

/// The answer to one graph query.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphAnswer {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
    /// More rows existed than the budget's `max_rows`.
    pub truncated: bool,
    pub elapsed_ms: u64,
}

/// The dormant guard of a read-only connection (see the module doc).
#[derive(Default)]
pub(crate) struct QueryGuard {
    armed: AtomicBool,
    deadline: Mutex<Option<Instant>>,
    timed_out: AtomicBool,
    /// Why the authorizer refused the statement being prepared.
    refused: Mutex<Option<String>>,
}

/// Installs the dormant authorizer and progress handler on a read-only connection.
pub(crate) fn install(conn: &mut rusqlite::Connection) -> rusqlite::Result<Arc<QueryGuard>> {
    let guard = Arc::new(QueryGuard::default());
    let g = guard.clone();
    conn.authorizer(Some(move |ctx: AuthContext<'_>| {
        if !g.armed.load(Ordering::Relaxed) {
            return Authorization::Allow;
        }
        match verdict(&ctx) {
            Ok(()) => Authorization::Allow,
            Err(why) => {
                let mut slot = g.refused.lock().unwrap_or_else(|e| e.into_inner());
                slot.get_or_insert(why);
                Authorization::Deny
            }
        }
    }))?;
    let g = guard.clone();
    conn.progress_handler(
        PROGRESS_STEPS,
        Some(move || {
            if !g.armed.load(Ordering::Relaxed) {
                return false;
            }
            let deadline = *g.deadline.lock().unwrap_or_else(|e| e.into_inner());
            if deadline.is_some_and(|d| Instant::now() >= d) {
                g.timed_out.store(true, Ordering::Relaxed);
                return true;
            }
            false
        }),
    )?;
    Ok(guard)
}

/// What the armed authorizer allows: reading the views (and, through them, what they read),
/// selecting, functions other than extension loading, and recursive common table expressions.
fn verdict(ctx: &AuthContext<'_>) -> Result<(), String> {
    // Reads the views make of the tables behind them (the inner-most view is named: one of
    // ours, or the schema's `edge` view the `edges` view reads).
    let through_view =
        ctx.accessor.is_some_and(|v| query_views::is_query_view(v) || v == EDGE_VIEW);
    match ctx.action {
        AuthAction::Select | AuthAction::Recursive => Ok(()),
        AuthAction::Read { table_name, .. } => {
            // No schema: a common table expression of the query itself (`COUNT(*) FROM cte`).
            if through_view
                || ctx.database_name.is_none()
                || (ctx.database_name == Some("temp") && query_views::is_query_view(table_name))
            {
                Ok(())
            } else {
                Err(format!(
                    "`{table_name}` is not one of the query views; read these: {}",
                    view_names()
                ))
            }
        }
        AuthAction::Function { function_name } => {
            let name = function_name.to_ascii_lowercase();
            if ["load_extension", "fts3_tokenizer", "readfile", "writefile", "edit"]
                .contains(&name.as_str())
            {
                Err(format!("the function `{function_name}` is refused"))
            } else {
                Ok(())
            }
        }
        AuthAction::Pragma { pragma_name, .. } => {
            Err(format!("PRAGMA {pragma_name} is refused: the graph query only reads the views"))
        }
        AuthAction::Attach { .. } | AuthAction::Detach { .. } => {
            Err("ATTACH and DETACH are refused: the graph query reads this index only".into())
        }
        AuthAction::Transaction { .. } | AuthAction::Savepoint { .. } => Err(
            "transactions are refused: the query already runs in one snapshot of the index".into(),
        ),
        _ => Err("the graph query is read-only: only one SELECT (or WITH ... SELECT) statement over the views is allowed".into()),
    }
}

fn view_names() -> String {
    QUERY_VIEWS.iter().map(|v| v.name).collect::<Vec<_>>().join(", ")
}

/// Arms a guard for one statement; disarms it (and lifts the length limit) when dropped, also
/// on an early return.
struct Armed<'g> {
    guard: &'g QueryGuard,
    conn: &'g rusqlite::Connection,
    length_limit: i32,
}

impl<'g> Armed<'g> {
    fn new(
        guard: &'g QueryGuard,
        conn: &'g rusqlite::Connection,
        timeout: Duration,
    ) -> rusqlite::Result<Armed<'g>> {
        let length_limit = conn.set_limit(Limit::SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)?;
        *guard.deadline.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now() + timeout);
        guard.timed_out.store(false, Ordering::Relaxed);
        *guard.refused.lock().unwrap_or_else(|e| e.into_inner()) = None;
        guard.armed.store(true, Ordering::Relaxed);
        Ok(Armed { guard, conn, length_limit })
    }

    fn refused(&self) -> Option<String> {
        self.guard.refused.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    fn timed_out(&self) -> bool {
        self.guard.timed_out.load(Ordering::Relaxed)
    }
}

impl Drop for Armed<'_> {
    fn drop(&mut self) {
        self.guard.armed.store(false, Ordering::Relaxed);
        *self.guard.deadline.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let _ = self.conn.set_limit(Limit::SQLITE_LIMIT_LENGTH, self.length_limit);
    }
}

impl Reader<'_> {
    /// Runs one read-only `SELECT` over the query views in this reader's snapshot, within
    /// `budget`. Refused statements, SQL errors and exhausted budgets are
    /// [`QueryError::GraphQuery`] with words for the author of the query.
    pub fn graph_query(
        &self,
        sql: &str,
        budget: &GraphQueryBudget,
    ) -> Result<GraphAnswer, QueryError> {
        let started = Instant::now();
        let Some(guard) = self.guard.as_deref() else {
            return Err(QueryError::GraphQuery {
                message: "graph queries run on read-only connections only".into(),
            });
        };
        if sql.trim().is_empty() {
            return Err(QueryError::GraphQuery { message: "the query is empty".into() });
        }
        // The views live in this connection's temp schema (the index file is not written).
        self.tx.execute_batch(&query_views::create_temp_views()).map_err(self.err())?;
        let conn: &rusqlite::Connection = &self.tx;
        let armed = Armed::new(guard, conn, budget.timeout).map_err(self.err())?;
        let failed = |armed: &Armed<'_>, e: rusqlite::Error| -> QueryError {
            let message = if let Some(why) = armed.refused() {
                why
            } else if armed.timed_out() {
                format!(
                    "the query ran out of time ({} ms): narrow it (a WHERE on an indexed column such as id, name, file or kind; a LIMIT inside recursive walks)",
                    budget.timeout.as_millis()
                )
            } else {
                match e {
                    rusqlite::Error::MultipleStatement => {
                        "one statement per query: remove everything after the first `;`".into()
                    }
                    rusqlite::Error::SqliteFailure(_, Some(m)) => {
                        format!("{m} (views: {})", view_names())
                    }
                    other => other.to_string(),
                }
            };
            QueryError::GraphQuery { message }
        };
        let mut stmt = conn.prepare(sql).map_err(|e| failed(&armed, e))?;
        if !stmt.readonly() {
            return Err(QueryError::GraphQuery {
                message: "the graph query is read-only: only SELECT statements are allowed".into(),
            });
        }
        let columns: Vec<String> = stmt.column_names().map(str::to_string).collect();
        let width = columns.len();
        let mut rows = stmt.query([]).map_err(|e| failed(&armed, e))?;
        let mut out: Vec<Vec<Cell>> = Vec::new();
        let mut truncated = false;
        loop {
            let row = match rows.next() {
                Ok(Some(row)) => row,
                Ok(None) => break,
                Err(e) => return Err(failed(&armed, e)),
            };
            if out.len() == budget.max_rows {
                truncated = true;
                break;
            }
            let mut cells = Vec::with_capacity(width);
            for i in 0..width {
                let value = row.get_ref(i).map_err(|e| failed(&armed, e))?;
                cells.push(cell(value, budget.max_cell_chars));
            }
            out.push(cells);
        }
        drop(rows);
        drop(stmt);
        drop(armed);
        Ok(GraphAnswer {
            columns,
            rows: out,
            truncated,
            elapsed_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        })
    }
}

fn cell(value: ValueRef<'_>, max_chars: usize) -> Cell {
    match value {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(i) => Cell::Integer(i),
        ValueRef::Real(r) => Cell::Real(r),
        ValueRef::Text(bytes) => {
            let text = String::from_utf8_lossy(bytes);
            match text.char_indices().nth(max_chars) {
                Some((end, _)) => Cell::Text { text: text[..end].to_string(), cut: true },
                None => Cell::Text { text: text.into_owned(), cut: false },
            }
        }
        ValueRef::Blob(b) => Cell::Blob(b.len()),
    }
}
