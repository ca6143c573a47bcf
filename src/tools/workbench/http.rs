//! The little HTTP/1.1 the Workbench speaks: one request per connection (`connection: close`), a
//! bounded body, and a response with the same safety headers on everything it serves; plus the head
//! of a Server-Sent Events stream.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::Value;

/// A request body larger than this is refused (an envelope is at most 1 MiB; a replayed file of
/// envelopes at most this).
pub const BODY_LIMIT: usize = 4 * 1024 * 1024;
/// A header section longer than this is refused.
const HEAD_LIMIT: usize = 64 * 1024;

pub struct Request {
    pub method: String,
    /// The path with its query.
    pub target: String,
    headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The path without its query.
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or_default()
    }

    /// A query parameter's value (the values the Workbench reads are plain hex: no decoding).
    pub fn query(&self, name: &str) -> Option<&str> {
        let (_, query) = self.target.split_once('?')?;
        query.split('&').filter_map(|pair| pair.split_once('=')).find(|(k, _)| *k == name).map(|(_, v)| v)
    }
}

pub fn read_request(stream: &TcpStream) -> std::io::Result<Request> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?).take(HEAD_LIMIT as u64);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let target = parts.next().unwrap_or_default().to_string();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    let length: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    if length > BODY_LIMIT {
        return Err(std::io::Error::other(format!("the request body is over {BODY_LIMIT} bytes")));
    }
    let mut reader = reader.into_inner();
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(Request { method, target, headers, body })
}

/// The headers every response carries: nothing cached, nothing sniffed, no script or style from
/// elsewhere, and no framing by another page.
const SAFETY: &str = "cache-control: no-store\r\nx-content-type-options: nosniff\r\n\
     content-security-policy: default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'\r\n\
     x-frame-options: DENY\r\nreferrer-policy: no-referrer\r\n";

pub fn respond(mut stream: &TcpStream, status: &str, content_type: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n{SAFETY}connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

pub fn respond_json(stream: &TcpStream, status: &str, value: &Value) -> std::io::Result<()> {
    respond(stream, status, "application/json", crate::vocabulary::json::pretty(value).as_bytes())
}

/// Starts a Server-Sent Events stream: the head, then events written by [`write_event`].
pub fn start_events(mut stream: &TcpStream) -> std::io::Result<()> {
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let head = format!("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n{SAFETY}connection: keep-alive\r\n\r\n");
    stream.write_all(head.as_bytes())?;
    // How long the browser waits before it reconnects after the stream ends.
    stream.write_all(b"retry: 500\n\n")?;
    stream.flush()
}

/// One event: its name and one line of JSON (serde's compact form never holds a newline).
pub fn event_text(name: &str, data: &Value) -> String {
    format!("event: {name}\ndata: {}\n\n", serde_json::to_string(data).expect("values serialise"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_one_data_line_even_for_text_with_newlines() {
        let text = event_text("build", &serde_json::json!({ "diagnostics": "a\nb" }));
        assert_eq!(text, "event: build\ndata: {\"diagnostics\":\"a\\nb\"}\n\n");
    }
}
