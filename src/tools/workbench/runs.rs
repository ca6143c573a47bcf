//! Runs in flight (each cancellable by the batch it belongs to) and the history of the last
//! [`HISTORY`] runs, which the page lists and can run again.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// How many finished runs the history keeps.
pub const HISTORY: usize = 25;

struct Running {
    id: u64,
    batch: String,
    cancel: Arc<AtomicBool>,
}

#[derive(Default)]
pub struct Runs {
    next: AtomicU64,
    running: Mutex<Vec<Running>>,
    history: Mutex<VecDeque<Value>>,
}

/// A run in flight: its id and the flag that stops it. Dropping it forgets the run.
pub struct Ticket<'r> {
    runs: &'r Runs,
    pub id: u64,
    pub cancel: Arc<AtomicBool>,
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        self.runs.running.lock().expect("runs are never poisoned").retain(|r| r.id != self.id);
    }
}

impl Runs {
    /// Registers a run of `batch` (the page's name for the runs one click started).
    pub fn start(&self, batch: &str) -> Ticket<'_> {
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let cancel = Arc::new(AtomicBool::new(false));
        let running = Running { id, batch: batch.to_string(), cancel: Arc::clone(&cancel) };
        self.running.lock().expect("runs are never poisoned").push(running);
        Ticket { runs: self, id, cancel }
    }

    /// Stops every run of `batch` still in flight; how many.
    pub fn cancel(&self, batch: &str) -> usize {
        let running = self.running.lock().expect("runs are never poisoned");
        running.iter().filter(|r| r.batch == batch).inspect(|r| r.cancel.store(true, Ordering::Relaxed)).count()
    }

    /// Keeps a finished run, newest first.
    pub fn record(&self, entry: Value) {
        let mut history = self.history.lock().expect("runs are never poisoned");
        history.push_front(entry);
        history.truncate(HISTORY);
    }

    pub fn history(&self) -> Value {
        json!(self.history.lock().expect("runs are never poisoned").iter().collect::<Vec<_>>())
    }
}

/// One line saying how a run ended, as the history lists it.
pub fn summary(run: &Value) -> String {
    if run["cancelled"] == true {
        return "cancelled".into();
    }
    if run["timedOut"] == true {
        return "timed out".into();
    }
    if let Some(exit) = run["blocked"]["exit"].as_i64() {
        return format!("blocked (exit {exit})");
    }
    if let Some(error) = run["decodeError"].as_str() {
        return format!("unreadable answer: {error}");
    }
    match run["exitCode"].as_i64() {
        Some(0) => {}
        Some(code) => return format!("failed (exit {code})"),
        None => return "killed".into(),
    }
    match &run["outcome"] {
        Value::Null => "continue".into(),
        outcome => match (outcome["outcome"].as_str(), outcome["reason"].as_str()) {
            (Some(decision), Some(reason)) => format!("{decision}: {reason}"),
            (Some(decision), None) => decision.to_string(),
            _ => crate::vocabulary::json::compact(outcome),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cancel_reaches_only_its_batch_and_a_finished_run_is_forgotten() {
        let runs = Runs::default();
        let a = runs.start("a");
        let b = runs.start("b");
        assert_eq!(runs.cancel("a"), 1);
        assert!(a.cancel.load(Ordering::Relaxed));
        assert!(!b.cancel.load(Ordering::Relaxed));
        drop(a);
        assert_eq!(runs.cancel("a"), 0);
        assert_ne!(b.id, 0);
    }

    #[test]
    fn history_keeps_the_newest_first_and_is_bounded() {
        let runs = Runs::default();
        for n in 0..HISTORY + 5 {
            runs.record(json!({ "n": n }));
        }
        let history = runs.history();
        assert_eq!(history.as_array().unwrap().len(), HISTORY);
        assert_eq!(history[0]["n"], HISTORY + 4);
    }

    #[test]
    fn summaries_name_how_a_run_ended() {
        let deny = json!({ "exitCode": 0, "outcome": { "outcome": "deny", "reason": "no" } });
        assert_eq!(summary(&deny), "deny: no");
        assert_eq!(summary(&json!({ "exitCode": 0, "outcome": null })), "continue");
        assert_eq!(summary(&json!({ "exitCode": 2, "blocked": { "exit": 2 } })), "blocked (exit 2)");
        assert_eq!(summary(&json!({ "exitCode": null, "cancelled": true })), "cancelled");
        assert_eq!(summary(&json!({ "exitCode": 1 })), "failed (exit 1)");
    }
}
