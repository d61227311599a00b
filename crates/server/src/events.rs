//! Query events: every CLI query and MCP tool call appends one JSON line to an events log in the
//! cache directory (`events.jsonl`), so we can see what agents ask and what it costs them:
//! time, surface (`cli` / `mcp`), root, revision, stale, operation, arguments, duration, answer
//! size in characters and estimated tokens (characters / 4), and whether lists were cut.
//! The log is rotated at [`MAX_LOG_BYTES`] (the previous one kept as `events.1.jsonl`);
//! `CODEGRAPH_EVENTS=off` turns it off. Writing it never fails an answer: an unwritable log is
//! skipped silently (the answer matters more than its record). `codegraph events --tail N`
//! reads it.

use anyhow::{Context, Result};
use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Size at which the log is rotated.
pub const MAX_LOG_BYTES: u64 = 8 << 20;

/// One appender per process: lines from concurrent MCP calls never interleave.
static WRITE: Mutex<()> = Mutex::new(());

/// The answer a CLI command printed last (JSON, or its text as a string), for its event.
static PRINTED: Mutex<Option<Value>> = Mutex::new(None);

/// Notes what a CLI command printed (called by the printers).
pub fn printed(answer: Value) {
    *PRINTED.lock().unwrap_or_else(|p| p.into_inner()) = Some(answer);
}

/// The root and revision a CLI command opened (for its event when what it printed does not
/// say them, as a text answer does not).
static OPENED: Mutex<Option<(String, Option<i64>)>> = Mutex::new(None);

/// Notes the root a CLI command reads, and the revision published when it opened it.
pub fn opened(root: &std::path::Path, revision: Option<i64>) {
    *OPENED.lock().unwrap_or_else(|p| p.into_inner()) =
        Some((root.display().to_string(), revision));
}

/// What [`opened`] noted, taken.
pub fn take_opened() -> Option<(String, Option<i64>)> {
    OPENED.lock().unwrap_or_else(|p| p.into_inner()).take()
}

/// `2026-12-06T11:57:13.042Z` for milliseconds since the Unix epoch (UTC).
pub fn utc_time(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    // Civil date from days since 1970-01-01 (the proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms % 1000
    )
}

/// What the CLI printed, taken.
pub fn take_printed() -> Option<Value> {
    PRINTED.lock().unwrap_or_else(|p| p.into_inner()).take()
}

/// Where the events of this user go; `None` when turned off or no cache directory is known.
pub fn log_path() -> Option<PathBuf> {
    // Unit tests run tools in-process; they must not write to the user's cache.
    if cfg!(test) {
        return None;
    }
    let off = std::env::var("CODEGRAPH_EVENTS")
        .is_ok_and(|v| matches!(v.trim(), "off" | "0" | "false" | "no"));
    if off {
        return None;
    }
    codegraph_engine::paths::cache_dir().ok().map(|d| d.join("events.jsonl"))
}

/// An operation being timed; [`Timer::record`] writes its event.
pub struct Timer {
    started: Instant,
    surface: &'static str,
    operation: String,
    arguments: Value,
}

impl Timer {
    pub fn start(surface: &'static str, operation: &str, arguments: Value) -> Timer {
        Timer { started: Instant::now(), surface, operation: operation.to_string(), arguments }
    }

    /// Records the answer (`None` for a failure, with its message in `error`).
    pub fn record(self, root: Option<&str>, answer: Option<&Value>, error: Option<&str>) {
        let Some(path) = log_path() else { return };
        // A text answer (the CLI without --json) counts its text; a JSON one its JSON.
        let chars = match answer {
            Some(Value::String(t)) => t.chars().count(),
            Some(a) => match a.get("text").and_then(Value::as_str) {
                Some(t) => t.chars().count(),
                None => a.to_string().chars().count(),
            },
            None => 0,
        };
        let mut event = json!({
            "time_ms": SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64),
            "surface": self.surface,
            "operation": self.operation,
            "arguments": self.arguments,
            "root": root,
            "duration_ms": (self.started.elapsed().as_secs_f64() * 1000.0 * 10.0).round() / 10.0,
            "chars": chars,
            "tokens_est": chars.div_ceil(4),
        });
        if let Some(a) = answer {
            event["revision"] = a.get("revision").cloned().unwrap_or(Value::Null);
            event["stale"] = a.get("stale").cloned().unwrap_or(Value::Null);
            event["truncated"] =
                json!(a.get("cut").is_some_and(|c| c.as_array().is_some_and(|c| !c.is_empty())));
        }
        if let Some(e) = error {
            event["error"] = json!(e);
        }
        let _ = append(&path, &event, MAX_LOG_BYTES);
    }
}

/// Appends one line, rotating a log that grew past `limit` bytes.
fn append(path: &std::path::Path, event: &Value, limit: u64) -> Result<()> {
    let _guard = WRITE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    if std::fs::metadata(path).is_ok_and(|m| m.len() >= limit) {
        std::fs::rename(path, path.with_file_name("events.1.jsonl"))?;
    }
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    // One write per line: appends of whole lines from several processes do not interleave.
    let mut line = event.to_string();
    line.push('\n');
    f.write_all(line.as_bytes())?;
    Ok(())
}

/// The last `n` events, oldest first (the rotated log is read too when the current one is
/// shorter); lines that do not parse are skipped.
pub fn tail(n: usize) -> Result<Vec<Value>> {
    let Some(path) = log_path() else {
        anyhow::bail!("the events log is off (CODEGRAPH_EVENTS=off)");
    };
    tail_of(&path, n)
}

fn tail_of(path: &std::path::Path, n: usize) -> Result<Vec<Value>> {
    let path = path.to_path_buf();
    let mut lines: Vec<Value> = Vec::new();
    for p in [path.with_file_name("events.1.jsonl"), path.clone()] {
        match std::fs::read_to_string(&p) {
            Ok(text) => lines.extend(text.lines().filter_map(|l| serde_json::from_str(l).ok())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("reading {}", p.display())),
        }
    }
    let skip = lines.len().saturating_sub(n);
    Ok(lines.split_off(skip))
}

#[cfg(test)]
mod tests {

    #[test]
    fn times_are_utc_dates() {
        assert_eq!(super::utc_time(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(super::utc_time(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(super::utc_time(1_796_558_233_042), "2026-12-06T11:57:13.042Z");
    }
    use super::*;

    #[test]
    fn lines_append_rotate_and_tail_oldest_first() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("events.jsonl");
        for i in 0..5 {
            append(&path, &json!({"i": i, "pad": "x".repeat(40)}), 120).expect("append");
        }
        // Lines are 57 bytes: the fourth append found the log at 171 >= 120 bytes and moved
        // it to events.1.jsonl; tail reads both, oldest first.
        assert!(path.with_file_name("events.1.jsonl").exists());
        let ids = |n| -> Vec<i64> {
            tail_of(&path, n).expect("tail").iter().filter_map(|e| e["i"].as_i64()).collect()
        };
        assert_eq!(ids(3), vec![2, 3, 4]);
        assert_eq!(ids(100), vec![0, 1, 2, 3, 4]);
        // Only one rotated log is kept: the oldest lines go.
        for i in 5..7 {
            append(&path, &json!({"i": i, "pad": "x".repeat(40)}), 120).expect("append");
        }
        assert_eq!(ids(100), vec![3, 4, 5, 6]);
    }
}
