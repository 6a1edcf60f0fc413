//! The `kraal` binary run as an installation, a referee or a script would.

use std::io::Write;
use std::process::{Command, Stdio};

/// `kraal ARGS...`, with no `DATABASE_URL` from the environment unless
/// [`Kraal::database_url`] sets one, and nothing on standard input unless
/// [`Kraal::stdin`] gives it.
pub fn kraal(args: &[&str]) -> Kraal {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kraal"));
    command.args(args).env_remove("DATABASE_URL");
    Kraal {
        command,
        stdin: None,
    }
}

/// One run of the binary, set up and not yet started.
pub struct Kraal {
    command: Command,
    stdin: Option<String>,
}

impl Kraal {
    /// Text piped to its standard input.
    pub fn stdin(mut self, text: &str) -> Kraal {
        self.stdin = Some(text.to_string());
        self
    }

    /// The database it opens, given as `DATABASE_URL`.
    pub fn database_url(mut self, url: &str) -> Kraal {
        self.command.env("DATABASE_URL", url);
        self
    }

    /// Runs it to the end: its exit code (-1 when a signal ended it), and
    /// its standard output and error, which must be UTF-8.
    pub fn run(mut self) -> (i32, String, String) {
        let what = format!("{:?}", self.command);
        self.command
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = self
            .command
            .spawn()
            .unwrap_or_else(|e| panic!("{what} starts: {e}"));
        if let Some(text) = &self.stdin {
            child
                .stdin
                .take()
                .expect("a pipe to standard input")
                .write_all(text.as_bytes())
                .unwrap_or_else(|e| panic!("{what} reads its input: {e}"));
        }
        let out = child
            .wait_with_output()
            .unwrap_or_else(|e| panic!("{what} finishes: {e}"));
        let text = |bytes: Vec<u8>, stream: &str| {
            String::from_utf8(bytes)
                .unwrap_or_else(|e| panic!("{what}: {stream} is not UTF-8: {e}"))
        };
        (
            out.status.code().unwrap_or(-1),
            text(out.stdout, "standard output"),
            text(out.stderr, "standard error"),
        )
    }
}
