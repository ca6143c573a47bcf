//! Pushed events: every open page holds one Server-Sent Events stream, and the server publishes a
//! `build` event when the bundle's state changes and a `run` event when a run starts or ends. No page
//! polls.

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel};

use serde_json::Value;

use super::http::event_text;

/// At most this many streams are open at once (each holds a thread); the next is refused.
pub const MAX_STREAMS: usize = 16;

#[derive(Default)]
pub struct Broadcaster {
    streams: Mutex<Vec<Sender<String>>>,
}

impl Broadcaster {
    /// A new stream's receiving end, or `None` when [`MAX_STREAMS`] are open.
    pub fn subscribe(&self) -> Option<Receiver<String>> {
        let mut streams = self.streams.lock().expect("the streams are never poisoned");
        // A closed page's stream ends at its next write; forget the ones already gone.
        streams.retain(|s| s.send(": \n\n".into()).is_ok());
        if streams.len() >= MAX_STREAMS {
            return None;
        }
        let (sender, receiver) = channel();
        streams.push(sender);
        Some(receiver)
    }

    /// Sends one event to every open stream, dropping those whose page has gone.
    pub fn publish(&self, name: &str, data: &Value) {
        let text = event_text(name, data);
        self.streams.lock().expect("the streams are never poisoned").retain(|s| s.send(text.clone()).is_ok());
    }

    #[cfg(test)]
    fn open(&self) -> usize {
        self.streams.lock().unwrap().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stream_gets_each_event_and_gone_ones_are_forgotten() {
        let events = Broadcaster::default();
        let first = events.subscribe().unwrap();
        let second = events.subscribe().unwrap();
        events.publish("build", &serde_json::json!({ "generation": 1 }));
        // Skipping the comments that probe for streams already gone.
        let next = |r: &Receiver<String>| r.try_iter().find(|text| !text.starts_with(':')).unwrap();
        assert!(next(&first).starts_with("event: build\ndata: {\"generation\":1}"));
        assert!(next(&second).starts_with("event: build"));
        drop(second);
        events.publish("run", &serde_json::json!({}));
        assert_eq!(events.open(), 1);
    }

    #[test]
    fn streams_are_bounded() {
        let events = Broadcaster::default();
        let held: Vec<_> = (0..MAX_STREAMS).map(|_| events.subscribe().unwrap()).collect();
        assert!(events.subscribe().is_none());
        drop(held);
        assert!(events.subscribe().is_some());
    }
}
