//! The shared server: the plugin's MCP server a shared route's wrapper asks, started for a run as
//! the host starts it for a session.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use camino::Utf8Path;

use super::SimulateError;

/// The artifact's MCP server, started as the host starts it for a session, with a runtime folder of
/// its own; stopped (stdin closed, then killed) when dropped.
pub(super) struct SharedServer {
    child: std::process::Child,
    pub(super) runtime_dir: camino::Utf8PathBuf,
}

impl SharedServer {
    pub(super) fn start(artifact: &Utf8Path, entry: &str) -> Result<SharedServer, SimulateError> {
        let runtime_dir = artifact.parent().unwrap_or(artifact).join("shared-runtime");
        let child = Command::new("node")
            .arg(artifact.join(entry))
            .current_dir(artifact)
            .env("AGENT_BUNDLE_RUNTIME_DIR", &runtime_dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(SimulateError::Node)?;
        let server = SharedServer { child, runtime_dir };
        let started = Instant::now();
        while !server.listening() {
            if started.elapsed() > Duration::from_secs(10) {
                return Err(SimulateError::BadInput(format!(
                    "the plugin's MCP server ({entry}) did not open its socket"
                )));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(server)
    }

    fn listening(&self) -> bool {
        std::fs::read_dir(&self.runtime_dir)
            .map(|entries| entries.flatten().any(|e| e.path().extension().is_some_and(|x| x == "sock")))
            .unwrap_or(false)
    }
}

impl Drop for SharedServer {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
