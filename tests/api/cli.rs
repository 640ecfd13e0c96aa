//! The command line: `arena --help` lists the flags; every subcommand that prints ends
//! quietly (exit 0, nothing on standard error) when its reader goes away, as in
//! `tilepost openapi | head`.

use std::io::Read;
use std::process::{Command, Stdio};

/// Runs `tilepost args...`, reads `take` bytes of its output and closes the pipe;
/// returns the exit status and standard error.
fn run_and_hang_up(args: &[&str], env: &[(&str, &str)], take: usize) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilepost"))
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tilepost");
    let mut out = child.stdout.take().expect("stdout");
    let mut buf = vec![0u8; take];
    if take > 0 {
        out.read_exact(&mut buf).expect("the first bytes");
    }
    drop(out);
    let done = child.wait_with_output().expect("tilepost ends");
    (
        done.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&done.stderr).to_string(),
    )
}

#[test]
fn openapi_into_a_closed_pipe_ends_quietly() {
    // the document is larger than a pipe's buffer: the write meets the closed pipe
    let (code, stderr) = run_and_hang_up(&["openapi"], &[], 100);
    assert_eq!(code, 0, "exit code; stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.trim().is_empty(), "{stderr}");
}

#[test]
fn replay_and_migrate_into_a_closed_pipe_end_quietly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("t.db").display());
    let (code, stderr) = run_and_hang_up(
        &["migrate"],
        &[("DATABASE_URL", url.as_str()), ("RUST_LOG", "off")],
        0,
    );
    assert_eq!(code, 0, "migrate; stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // one of the engine's golden logs; the pipe is closed before the replay ends
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/engine/tests/data/base_2p.json"
    );
    let (code, stderr) = run_and_hang_up(&["replay", log], &[], 0);
    assert_eq!(code, 0, "replay; stderr: {stderr}");
    assert!(stderr.trim().is_empty(), "{stderr}");
}

/// `tilepost arena --help` (and `tilepost help arena`) prints every flag of the arena.
#[test]
fn arena_help_lists_the_flags() {
    for args in [
        &["arena", "--help"][..],
        &["arena", "-h"],
        &["help", "arena"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tilepost"))
            .args(args)
            .output()
            .expect("run tilepost");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{args:?}: {stdout}");
        for flag in [
            "--bots",
            "--games",
            "--players",
            "--expansions",
            "--seed",
            "--playouts",
            "--ms",
            "--search",
            "--threads",
        ] {
            assert!(
                stdout.contains(flag),
                "{args:?} leaves out {flag}: {stdout}"
            );
        }
        assert!(!stdout.contains("USAGE`"), "{stdout}");
    }
}
