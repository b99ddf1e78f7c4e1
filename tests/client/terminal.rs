//! The terminal renderer in a real pseudo-terminal: each test starts `terminal_form` (or
//! `terminal_client` against `stdio_server`) inside its own tmux server, waits for each prompt
//! to appear on the screen, types keys, and checks the `ElicitResult` printed on stdout. The
//! ratatui widget's full-screen client, `tui_client`, is driven the same way.
//!
//! The tests on a screen need tmux, which a fresh machine does not have: they are
//! `#[ignore]`d, and run with `cargo test --test client -- --include-ignored` once tmux is
//! installed (`bash .ci/tmux`), as `.ci/run` does. Asked to run without it, they fail saying
//! so. Every wait is bounded; a test that does not see what it waits for fails with the screen
//! it saw.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use elicit_test_support::examples_built::examples_dir;
use serde_json::{Value, json};

/// How long to wait for a prompt or an exit: generous, for a loaded 2-core machine.
const PATIENCE: Duration = Duration::from_secs(60);

fn require_tmux() {
    let found = Command::new("tmux")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    assert!(
        found,
        "these tests drive a real terminal through tmux, which is not installed: \
         run `bash .ci/tmux` (or `apt-get install tmux`)"
    );
}

/// A program running in a detached tmux session of its own tmux server, in its own directory.
struct Screen {
    dir: PathBuf,
}

impl Screen {
    /// A screen-to-be with a fresh directory of its own.
    fn new() -> Screen {
        require_tmux();
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "elicit-terminal-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Screen { dir }
    }

    /// Writes a file into the screen's directory.
    fn file(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.dir.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// A stand-in browser for `ELICIT_BROWSER` that records the URLs it is asked to open:
    /// the script, and the record it writes.
    fn recording_browser(&self) -> (PathBuf, PathBuf) {
        let log = self.dir.join("opened.txt");
        let script = self.file(
            "browser.sh",
            &format!("#!/bin/sh\necho \"$1\" >> '{}'\n", log.display()),
        );
        let status = Command::new("chmod")
            .arg("+x")
            .arg(&script)
            .status()
            .unwrap();
        assert!(status.success());
        (script, log)
    }

    /// Runs `program args…` in a 110x45 terminal, stdout to `stdout.txt`, its exit status to
    /// `status.txt`; `env` is set for the program.
    fn run(&self, program: &Path, args: &[&str], env: &[(&str, &str)]) {
        let screen = self;
        let mut script = String::from("cd \"$1\" || exit 1; shift; ");
        for (name, value) in env {
            script.push_str(&format!("export {name}={}; ", shell_quote(value)));
        }
        script.push_str("\"$@\" > stdout.txt; echo $? > status.txt.tmp; mv status.txt.tmp status.txt; sleep 600");
        let status = screen
            .tmux()
            .args([
                "new-session",
                "-d",
                "-s",
                "t",
                "-x",
                "110",
                "-y",
                "45",
                "--",
            ])
            .args(["sh", "-c", &script, "sh"])
            .arg(&screen.dir)
            .arg(program)
            .args(args)
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux did not start the session");
    }

    fn tmux(&self) -> Command {
        let mut command = Command::new("tmux");
        // A server of our own (no user config), so tests neither see nor disturb others.
        command
            .arg("-f")
            .arg("/dev/null")
            .arg("-S")
            .arg(self.dir.join("tmux.sock"));
        command.stdout(Stdio::piped()).stderr(Stdio::piped());
        command
    }

    /// The screen as text; with `escapes`, with its colors and attributes as ANSI sequences.
    fn capture(&self, escapes: bool) -> String {
        let mut command = self.tmux();
        command.args(["capture-pane", "-p", "-t", "t"]);
        if escapes {
            command.arg("-e");
        }
        let output = command.output().expect("tmux runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Waits until `text` is on the screen, and returns the screen.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.capture(false);
            if screen.contains(text) {
                return screen;
            }
            if start.elapsed() > PATIENCE {
                panic!("`{text}` did not appear within {PATIENCE:?}; the screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until every one of `texts` is on the screen at once, and returns the screen: a
    /// full-screen program's frame may be caught half drawn.
    fn wait_for_all(&self, texts: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let screen = self.capture(false);
            if texts.iter().all(|text| screen.contains(text)) {
                return screen;
            }
            if start.elapsed() > PATIENCE {
                panic!("{texts:?} did not all appear within {PATIENCE:?}; the screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Types text literally.
    fn type_text(&self, text: &str) {
        let status = self
            .tmux()
            .args(["send-keys", "-t", "t", "-l", text])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Presses keys by tmux's names: `Enter`, `Escape`, `Up`, `Down`, `Space`, `BSpace`, `C-c`.
    fn press(&self, keys: &[&str]) {
        let status = self
            .tmux()
            .args(["send-keys", "-t", "t"])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits for `prompt`, then types `text` and Enter.
    fn answer(&self, prompt: &str, text: &str) {
        self.wait_for(prompt);
        self.type_text(text);
        self.press(&["Enter"]);
    }

    /// Waits for the program to exit; its status and stdout.
    fn finish(&self) -> (i32, String) {
        let start = Instant::now();
        let status_file = self.dir.join("status.txt");
        while !status_file.exists() {
            if start.elapsed() > PATIENCE {
                panic!(
                    "the program did not exit within {PATIENCE:?}; the screen:\n{}",
                    self.capture(false)
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let status = std::fs::read_to_string(status_file).unwrap();
        let stdout = std::fs::read_to_string(self.dir.join("stdout.txt")).unwrap();
        (status.trim().parse().unwrap(), stdout)
    }

    /// The one JSON line `terminal_form` printed.
    fn result(&self) -> Value {
        let (status, stdout) = self.finish();
        assert_eq!(
            status,
            0,
            "terminal_form failed; the screen:\n{}",
            self.capture(false)
        );
        assert_eq!(stdout.lines().count(), 1, "not one line: {stdout:?}");
        serde_json::from_str(&stdout).unwrap()
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What the recording browser wrote, once it has: it runs detached from the program that
/// started it, so it may finish a moment after that program.
fn opened_urls(record: &Path) -> String {
    let start = Instant::now();
    loop {
        if let Ok(urls) = std::fs::read_to_string(record)
            && urls.ends_with('\n')
        {
            return urls;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the browser was not started within {PATIENCE:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Starts `terminal_form` on this request file content (JSON text: the order of the
/// properties is the order of the form).
fn form(request: &str) -> Screen {
    let screen = Screen::new();
    run_form(&screen, request, &[]);
    screen
}

fn run_form(screen: &Screen, request: &str, env: &[(&str, &str)]) {
    let file = screen.file("request.json", request);
    let program = examples_dir().join("terminal_form");
    screen.run(&program, &[file.to_str().unwrap()], env);
}

/// Starts `terminal_form` on this request, as if `server` had sent it.
fn form_from(server: &str, request: &str, env: &[(&str, &str)]) -> Screen {
    let screen = Screen::new();
    let file = screen.file("request.json", request);
    let program = examples_dir().join("terminal_form");
    screen.run(&program, &["--server", server, file.to_str().unwrap()], env);
    screen
}

/// Picks "Fill in the form" at the opening choice.
fn fill_in(screen: &Screen) {
    screen.wait_for("Fill in the form");
    screen.press(&["Enter"]);
}

/// Picks "Send" at the closing choice.
fn send(screen: &Screen) {
    screen.wait_for("? Send your answers?");
    screen.press(&["Enter"]);
}

/// At the review, picks "Change an answer", then the answer `down` entries below the first,
/// and waits for its prompt (`? LABEL`: inquire marks the prompt being answered with `?`).
fn change_answer(screen: &Screen, down: usize, label: &str) {
    screen.wait_for("? Send your answers?");
    screen.press(&["Down", "Enter"]);
    screen.wait_for("Which answer do you change?");
    for _ in 0..down {
        screen.press(&["Down"]);
    }
    screen.press(&["Enter"]);
    screen.wait_for(&format!("? {label}"));
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn every_field_kind_is_answered_in_schema_order() {
    let screen = form(
        r##"{
        "message": "Tell us about your order",
        "requestedSchema": {"type": "object", "properties": {
            "name": {"type": "string", "title": "Full name", "description": "As on your card"},
            "email": {"type": "string", "title": "Email", "format": "email"},
            "quantity": {"type": "integer", "title": "Quantity", "minimum": 1, "maximum": 9},
            "weight": {"type": "number", "title": "Weight in kg"},
            "gift": {"type": "boolean", "title": "Gift wrap"},
            "size": {"type": "string", "title": "Size", "enum": ["S", "M", "L"]},
            "color": {"type": "string", "title": "Color", "oneOf": [
                {"const": "#f00", "title": "Red"}, {"const": "#00f", "title": "Blue"}]},
            "shipping": {"type": "string", "title": "Shipping", "enum": ["std", "exp"],
                "enumNames": ["Standard post", "Express courier"]},
            "tags": {"type": "array", "title": "Tags",
                "items": {"type": "string", "enum": ["new", "sale", "eco"]}},
            "extras": {"type": "array", "title": "Extras", "items": {"anyOf": [
                {"const": "card", "title": "Greeting card"},
                {"const": "box", "title": "Wooden box"}]}}
        }, "required": ["name", "email", "quantity", "weight", "gift", "size", "color",
            "shipping", "tags", "extras"]}
    }"##,
    );
    fill_in(&screen);
    // The description is the help line, drawn after the prompt's line.
    screen.wait_for_all(&["Full name *", "As on your card"]);
    screen.answer("Full name *", "Ada Lovelace");
    screen.answer("Email *", "ada@example.com");
    screen.answer("Quantity *", "3");
    screen.answer("Weight in kg *", "2.5");
    screen.answer("Gift wrap *", "y");
    // Untitled enum: the values; pick the third.
    screen.wait_for("Size *");
    screen.press(&["Down", "Down", "Enter"]);
    // oneOf: the titles are shown, the const is sent. The prompt's line and its options are
    // waited for together: a screen read between the two draws has the one without the others.
    screen.wait_for_all(&["Color *", "Red", "Blue"]);
    screen.press(&["Down", "Enter"]);
    // Legacy enumNames: the names are shown.
    screen.wait_for_all(&["Shipping *", "Standard post", "Express courier"]);
    screen.press(&["Down", "Enter"]);
    screen.wait_for("Tags *");
    screen.press(&["Space", "Down", "Down", "Space", "Enter"]);
    screen.wait_for_all(&["Extras *", "Greeting card", "Wooden box"]);
    screen.press(&["Down", "Space", "Enter"]);
    let summary = screen.wait_for("Send your answers?");
    let order: Vec<usize> = ["Full name", "Email", "Quantity", "Weight", "Gift", "Size"]
        .iter()
        .map(|label| summary.find(label).unwrap())
        .collect();
    assert!(order.is_sorted(), "fields out of schema order:\n{summary}");
    screen.press(&["Enter"]);
    assert_eq!(
        screen.result(),
        json!({"action": "accept", "content": {
            "name": "Ada Lovelace", "email": "ada@example.com", "quantity": 3, "weight": 2.5,
            "gift": true, "size": "L", "color": "#00f", "shipping": "exp",
            "tags": ["new", "eco"], "extras": ["box"]
        }})
    );
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn a_rejected_value_is_corrected_in_place() {
    let screen = form(
        r##"{"type": "object", "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 3, "maxLength": 10},
        "code": {"type": "string", "title": "Code", "pattern": "^[A-Z]{3}$"},
        "day": {"type": "string", "title": "Day", "format": "date"},
        "nights": {"type": "integer", "title": "Nights", "minimum": 1, "maximum": 30},
        "picks": {"type": "array", "title": "Picks", "minItems": 1, "maxItems": 1,
            "items": {"type": "string", "enum": ["a", "b"]}}
    }, "required": ["name", "code", "day", "nights", "picks"]}"##,
    );
    fill_in(&screen);
    screen.answer("Name *", "Al");
    let rejected = screen.wait_for("Name must be at least 3 characters long, got 2");
    assert!(
        rejected.contains("? Name * Al"),
        "the value stays in the field:\n{rejected}"
    );
    // Corrected in place: the rejected text is still there, and is completed.
    screen.type_text("an");
    screen.press(&["Enter"]);
    screen.answer("Code *", "abc");
    screen.wait_for("Code must match the pattern ^[A-Z]{3}$");
    screen.press(&["BSpace", "BSpace", "BSpace"]);
    screen.type_text("ABC");
    screen.press(&["Enter"]);
    screen.answer("Day *", "2024-02-30");
    screen.wait_for("Day must be a date like 2026-12-24");
    screen.press(&["BSpace", "BSpace"]);
    screen.type_text("29");
    screen.press(&["Enter"]);
    screen.answer("Nights *", "31");
    screen.wait_for("Nights must be at most 30, got 31");
    screen.press(&["BSpace"]);
    screen.press(&["Enter"]);
    screen.wait_for("Picks *");
    screen.press(&["Enter"]);
    screen.wait_for("Picks needs at least 1 selected, got 0");
    screen.press(&["Right", "Enter"]);
    screen.wait_for("Picks allows at most 1 selected, got 2");
    screen.press(&["Space", "Enter"]);
    send(&screen);
    assert_eq!(
        screen.result(),
        json!({"action": "accept", "content": {
            "name": "Alan", "code": "ABC", "day": "2024-02-29", "nights": 3, "picks": ["b"]
        }})
    );
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn defaults_are_accepted_with_enter() {
    let screen = form(
        r##"{"type": "object", "properties": {
        "name": {"type": "string", "title": "Name", "default": "John Doe"},
        "age": {"type": "integer", "title": "Age", "default": 30},
        "score": {"type": "number", "title": "Score", "default": 95.5},
        "member": {"type": "boolean", "title": "Member", "default": false},
        "status": {"type": "string", "title": "Status", "oneOf": [
            {"const": "active", "title": "Active"}, {"const": "inactive", "title": "Inactive"},
            {"const": "pending", "title": "Pending"}], "default": "pending"},
        "days": {"type": "array", "title": "Days", "items": {"type": "string",
            "enum": ["mon", "tue", "wed"]}, "default": ["tue"]}
    }, "required": ["name", "age"]}"##,
    );
    fill_in(&screen);
    let name = screen.wait_for("Name *");
    assert!(
        name.contains("John Doe"),
        "the default is pre-filled:\n{name}"
    );
    screen.press(&["Enter"]);
    for label in ["Age *", "Score", "Member", "Status", "Days"] {
        screen.wait_for(label);
        screen.press(&["Enter"]);
    }
    send(&screen);
    assert_eq!(
        screen.result(),
        json!({"action": "accept", "content": {
            "name": "John Doe", "age": 30, "score": 95.5, "member": false,
            "status": "pending", "days": ["tue"]
        }})
    );
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn optional_fields_can_be_left_empty() {
    let screen = form(
        r##"{"type": "object", "properties": {
        "nickname": {"type": "string", "title": "Nickname", "minLength": 2},
        "age": {"type": "integer", "title": "Age"},
        "vip": {"type": "boolean", "title": "VIP"},
        "size": {"type": "string", "title": "Size", "enum": ["S", "M"]},
        "tags": {"type": "array", "title": "Tags", "minItems": 1,
            "items": {"type": "string", "enum": ["x", "y"]}},
        "city": {"type": "string", "title": "City"}
    }, "required": ["city"]}"##,
    );
    fill_in(&screen);
    for label in ["Nickname", "Age", "VIP", "Size", "Tags"] {
        screen.wait_for(label);
        screen.press(&["Enter"]);
    }
    // A required field cannot be left empty.
    screen.answer("City *", "");
    screen.wait_for("City is required");
    screen.type_text("Oslo");
    screen.press(&["Enter"]);
    send(&screen);
    assert_eq!(
        screen.result(),
        json!({"action": "accept", "content": {"city": "Oslo"}})
    );
}

fn small_form() -> Value {
    json!({"message": "Your name?", "requestedSchema": {"type": "object", "properties": {
        "name": {"type": "string", "title": "Name"}
    }, "required": ["name"]}})
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn the_form_can_be_declined_before_filling_it() {
    let screen = form(&small_form().to_string());
    screen.wait_for("Fill in the form");
    screen.press(&["Down", "Enter"]);
    assert_eq!(screen.result(), json!({"action": "decline"}));
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn the_form_can_be_declined_after_filling_it() {
    let screen = form(&small_form().to_string());
    fill_in(&screen);
    screen.answer("Name *", "Ada");
    screen.wait_for("Send your answers?");
    screen.press(&["Down", "Down", "Enter"]);
    assert_eq!(screen.result(), json!({"action": "decline"}));
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn the_form_names_the_server_that_asks() {
    let screen = form_from("Hotel Example 2.1", &small_form().to_string(), &[]);
    let opening = screen.wait_for("Fill in the form");
    assert!(
        opening.contains("Form from the server Hotel Example 2.1"),
        "{opening}"
    );
    screen.press(&["Enter"]);
    screen.answer("Name *", "Ada");
    let review = screen.wait_for("Send your answers?");
    assert!(
        review.contains("Your answers, for the server Hotel Example 2.1:"),
        "the review names the server too:\n{review}"
    );
    screen.press(&["Enter"]);
    assert_eq!(
        screen.result(),
        json!({"action": "accept", "content": {"name": "Ada"}})
    );
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn an_answer_is_changed_at_the_review_and_sent_changed() {
    let screen = form(
        r##"{"message": "Your stay", "requestedSchema": {"type": "object", "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 3},
        "nights": {"type": "integer", "title": "Nights", "minimum": 1, "maximum": 30},
        "room": {"type": "string", "title": "Room", "oneOf": [
            {"const": "std", "title": "Standard"}, {"const": "suite", "title": "Suite"}]}
    }, "required": ["name", "nights", "room"]}}"##,
    );
    fill_in(&screen);
    screen.answer("Name *", "Ada");
    screen.answer("Nights *", "2");
    screen.wait_for("Room *");
    screen.press(&["Enter"]);
    let review = screen.wait_for("? Send your answers?");
    for line in ["Name: Ada", "Nights: 2", "Room: Standard"] {
        assert!(
            review.contains(line),
            "`{line}` is not shown back:\n{review}"
        );
    }
    // Nights, the second answer: starts from 2; the same checks as the first time.
    change_answer(&screen, 1, "Nights * 2");
    screen.press(&["BSpace"]);
    screen.type_text("31");
    screen.press(&["Enter"]);
    screen.wait_for("Nights must be at most 30, got 31");
    screen.press(&["BSpace", "BSpace"]);
    screen.type_text("4");
    screen.press(&["Enter"]);
    screen.wait_for("Nights: 4");
    // The room too, by its title.
    change_answer(&screen, 2, "Room *");
    screen.press(&["Down", "Enter"]);
    screen.wait_for("Room: Suite");
    screen.wait_for("? Send your answers?");
    screen.press(&["Enter"]);
    assert_eq!(
        screen.result(),
        json!({"action": "accept", "content": {"name": "Ada", "nights": 4, "room": "suite"}})
    );
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn escape_in_a_field_cancels() {
    let screen = form(&small_form().to_string());
    fill_in(&screen);
    screen.wait_for("Name *");
    screen.type_text("Ad");
    screen.press(&["Escape"]);
    assert_eq!(screen.result(), json!({"action": "cancel"}));
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn ctrl_c_cancels() {
    let screen = form(&small_form().to_string());
    screen.wait_for("Fill in the form");
    screen.press(&["C-c"]);
    assert_eq!(screen.result(), json!({"action": "cancel"}));
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn cancel_is_offered_at_the_end() {
    let screen = form(&small_form().to_string());
    fill_in(&screen);
    screen.answer("Name *", "Ada");
    screen.wait_for("Send your answers?");
    screen.press(&["Down", "Down", "Down", "Enter"]);
    assert_eq!(screen.result(), json!({"action": "cancel"}));
}

/// A URL whose every part deserves a warning: plain http, text before `@`, and a Cyrillic
/// look-alike of apple.com.
fn suspicious_url() -> Value {
    json!({"mode": "url", "elicitationId": "e-1", "message": "Sign in to connect your account.",
        "url": "http://github.com@login.xn--pple-43d.com/connect?step=1"})
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn url_consent_refused_opens_nothing() {
    let screen = Screen::new();
    let (browser, log) = screen.recording_browser();
    run_form(
        &screen,
        &suspicious_url().to_string(),
        &[("ELICIT_BROWSER", browser.to_str().unwrap())],
    );
    let text = screen.wait_for("Open this link?");
    assert!(text.contains("Sign in to connect your account."), "{text}");
    // The server that asks, apart from the site the link goes to.
    assert!(
        text.contains("Request from the server request.json"),
        "{text}"
    );
    assert!(
        text.contains("http://github.com@login.xn--pple-43d.com/connect?step=1"),
        "{text}"
    );
    for warning in [
        "not encrypted",
        "\"github.com@\" before the domain is not where the link goes",
        "it reads \"login.\u{430}pple.com\" but is \"login.xn--pple-43d.com\"",
        "imitates \"login.apple.com\"",
    ] {
        assert!(
            text.contains(warning),
            "missing warning `{warning}`:\n{text}"
        );
    }
    // The registrable domain, and only it, is highlighted in the URL.
    let styled = screen.capture(true);
    assert!(
        styled.contains("@login.\x1b[1m\x1b[4m\x1b[36mxn--pple-43d.com\x1b[")
            || styled.contains("@login.\x1b[1;4m\x1b[36mxn--pple-43d.com\x1b[")
            || styled.contains("@login.\x1b[1;4;36mxn--pple-43d.com\x1b["),
        "the registrable domain is not highlighted:\n{styled:?}"
    );
    // The cursor starts on Decline.
    screen.press(&["Enter"]);
    assert_eq!(screen.result(), json!({"action": "decline"}));
    assert!(!log.exists(), "the browser was started");
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn url_consent_given_opens_the_browser() {
    let screen = Screen::new();
    let (browser, log) = screen.recording_browser();
    run_form(
        &screen,
        &json!({"mode": "url", "elicitationId": "e-2", "message": "Connect your calendar.",
            "url": "https://calendar.example.com/oauth?state=abc"})
        .to_string(),
        &[("ELICIT_BROWSER", browser.to_str().unwrap())],
    );
    let text = screen.wait_for("Open this link?");
    assert!(
        text.contains("site: example.com (address calendar.example.com)"),
        "{text}"
    );
    assert!(!text.contains("warning"), "{text}");
    screen.press(&["Up", "Up", "Enter"]);
    assert_eq!(screen.result(), json!({"action": "accept"}));
    let opened = opened_urls(&log);
    assert_eq!(opened, "https://calendar.example.com/oauth?state=abc\n");
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn url_link_can_be_printed_instead_of_opened() {
    let screen = Screen::new();
    let (browser, log) = screen.recording_browser();
    run_form(
        &screen,
        &json!({"mode": "url", "elicitationId": "e-3", "message": "Pay the deposit.",
            "url": "https://pay.example.org/d/42"})
        .to_string(),
        &[("ELICIT_BROWSER", browser.to_str().unwrap())],
    );
    screen.wait_for("Open this link?");
    screen.press(&["Up", "Enter"]);
    screen.wait_for("Open this link yourself: https://pay.example.org/d/42");
    assert_eq!(screen.result(), json!({"action": "accept"}));
    assert!(!log.exists(), "the browser was started");
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn escape_at_the_url_consent_cancels() {
    let screen = form(&suspicious_url().to_string());
    screen.wait_for("Open this link?");
    screen.press(&["Escape"]);
    assert_eq!(screen.result(), json!({"action": "cancel"}));
}

#[test]
fn without_a_terminal_the_form_fails_at_once() {
    let file = std::env::temp_dir().join(format!(
        "elicit-terminal-no-tty-{}.json",
        std::process::id()
    ));
    std::fs::write(&file, small_form().to_string()).unwrap();
    let mut child = Command::new(examples_dir().join("terminal_form"))
        .arg(&file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > PATIENCE {
            child.kill().unwrap();
            panic!("terminal_form waited for a terminal that is not there");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    let _ = std::fs::remove_file(&file);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("stdin is not a terminal"), "{stderr}");
}

#[test]
fn a_bad_request_file_is_reported_with_where_it_is_wrong() {
    let file =
        std::env::temp_dir().join(format!("elicit-terminal-bad-{}.json", std::process::id()));
    std::fs::write(
        &file,
        r#"{"message": "m", "requestedSchema": {"type": "object",
            "properties": {"address": {"type": "object"}}}}"#,
    )
    .unwrap();
    let output = Command::new(examples_dir().join("terminal_form"))
        .arg(&file)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("property `address`"), "{stderr}");
}

/// `--protocol REVISION` when the client is pinned to it; nothing when it negotiates.
fn protocol_flag(pinned: Option<&str>) -> Vec<&str> {
    pinned.map_or_else(Vec::new, |revision| vec!["--protocol", revision])
}

/// The MCP clients' arguments: the pinned revision, if any, then the rest.
fn client_args<'a>(pinned: Option<&'a str>, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = protocol_flag(pinned);
    args.extend_from_slice(rest);
    args
}

/// `terminal_client` calling `tool` of `stdio_server` on a screen of its own, `pinned` to a
/// revision or negotiating.
fn terminal_client_on_the_hotel(pinned: Option<&str>, tool: &str) -> Screen {
    let examples = examples_dir();
    let server = examples.join("stdio_server");
    let screen = Screen::new();
    screen.run(
        &examples.join("terminal_client"),
        &client_args(pinned, &[tool, server.to_str().unwrap()]),
        &[],
    );
    screen
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn terminal_client_books_a_room_on_2026_07_28_as_it_negotiates() {
    terminal_client_books_a_room(None, "2026-07-28");
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn terminal_client_pinned_to_2025_11_25_books_a_room() {
    terminal_client_books_a_room(Some("2025-11-25"), "2025-11-25");
}

/// `terminal_client` books a room by keystrokes, `pinned` to a revision or negotiating, and
/// says that it speaks `spoken`.
fn terminal_client_books_a_room(pinned: Option<&str>, spoken: &str) {
    let screen = terminal_client_on_the_hotel(pinned, "book_room");
    let opening = screen.wait_for("Where and when would you like to stay?");
    assert!(
        opening.contains("Form from the server elicit-hotel 0.1.0"),
        "the server's serverInfo names it:\n{opening}"
    );
    assert!(
        opening.contains(&format!(
            "Connected to elicit-hotel 0.1.0, speaking MCP {spoken}."
        )),
        "{opening}"
    );
    fill_in(&screen);
    // The server fills in today's date at run time; the user types another over it.
    let today = time::OffsetDateTime::now_utc().date().to_string();
    let date = screen.wait_for("Check-in date *");
    assert!(date.contains(&today), "today's date is filled in:\n{date}");
    screen.press(&["BSpace"; 10]);
    screen.type_text("2026-12-24");
    screen.press(&["Enter"]);
    // The fields come in the form's declaration order (the feature `rmcp` keeps it on the wire).
    // Nights: 2 instead of the default 1.
    screen.wait_for("Nights");
    screen.press(&["BSpace"]);
    screen.type_text("2");
    screen.press(&["Enter"]);
    // Guests: the default, 2.
    screen.wait_for("Guests");
    screen.press(&["Enter"]);
    // Room type: the suite, two below the default.
    screen.wait_for("Deluxe room with a view");
    screen.press(&["Down", "Down", "Enter"]);
    // Extras: breakfast and late check-out.
    screen.wait_for("Late check-out");
    screen.press(&["Space", "Down", "Down", "Space", "Enter"]);
    let review = screen.wait_for("? Send your answers?");
    assert!(
        review.contains("Your answers, for the server elicit-hotel 0.1.0:"),
        "{review}"
    );
    // At the review: 3 guests after all.
    change_answer(&screen, 2, "Guests");
    screen.press(&["BSpace"]);
    screen.type_text("3");
    screen.press(&["Enter"]);
    screen.wait_for("Guests: 3");
    send(&screen);
    let (status, stdout) = screen.finish();
    assert_eq!(status, 0, "{stdout}\n{}", screen.capture(false));
    assert_eq!(
        stdout.trim(),
        "Booked. Booking 1001: Suite room for 3 guest(s), 2 night(s) from 2026-12-24, \
         with Breakfast, LateCheckOut."
    );
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn a_form_nobody_can_answer_offers_only_decline_and_cancel() {
    let screen = form(
        r#"{"type": "object", "properties": {
        "size": {"type": "string", "title": "Size", "enum": []}}, "required": ["size"]}"#,
    );
    let text = screen.wait_for("Answer this form?");
    assert!(
        text.contains("Size is required, and it offers no choices"),
        "{text}"
    );
    assert!(!text.contains("Fill in the form"), "{text}");
    screen.press(&["Enter"]);
    assert_eq!(screen.result(), json!({"action": "decline"}));
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn terminal_client_answers_a_form_inside_a_task_on_2026_07_28() {
    terminal_client_updates_the_contact_in_a_task(None, "2026-07-28");
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn terminal_client_pinned_to_2025_11_25_answers_a_form_inside_a_task() {
    terminal_client_updates_the_contact_in_a_task(Some("2025-11-25"), "2025-11-25");
}

/// `stdio_server`'s `update_contact` runs as a task for a client that declared the extension:
/// the client polls it, and its form, asked inside the task, is answered by keystrokes.
fn terminal_client_updates_the_contact_in_a_task(pinned: Option<&str>, spoken: &str) {
    let screen = terminal_client_on_the_hotel(pinned, "update_contact");
    let opening = screen.wait_for("How can the front desk reach you?");
    for line in [
        &format!("Connected to elicit-hotel 0.1.0, speaking MCP {spoken}."),
        "The server runs the call as task ",
    ] {
        assert!(
            opening.contains(line),
            "`{line}` is not on the screen:\n{opening}"
        );
    }
    fill_in(&screen);
    screen.answer("? Name", "Ada Lovelace");
    screen.answer("? Email", "ada@example.com");
    // No phone; the newsletter's default, No.
    screen.answer("? Phone", "");
    screen.wait_for("? Newsletter");
    screen.press(&["Enter"]);
    send(&screen);
    let (status, stdout) = screen.finish();
    assert_eq!(status, 0, "{stdout}\n{}", screen.capture(false));
    assert_eq!(
        stdout.trim(),
        "We will write to Ada Lovelace at ada@example.com, no newsletter."
    );
}

/// A child process killed when the test ends, however it ends.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `url_mode_server` on a free loopback port; the process and its MCP URL.
fn url_mode_server() -> (Killed, String) {
    use std::io::BufRead;
    let mut child = Command::new(examples_dir().join("url_mode_server"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let server = Killed(child);
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        let _ = sender.send(line);
    });
    let line = receiver
        .recv_timeout(PATIENCE)
        .expect("url_mode_server did not say where it listens");
    let url = line
        .split_whitespace()
        .find(|word| word.starts_with("http://") && word.ends_with("/mcp"))
        .unwrap_or_else(|| panic!("no MCP URL in {line:?}"))
        .to_owned();
    (server, url)
}

/// One HTTP/1.1 exchange on loopback, as the user's browser would make it: the whole response.
fn browser_request(origin: &str, request_line: &str, cookie: Option<&str>) -> String {
    use std::io::{Read, Write};
    let address = origin.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut request = format!("{request_line} HTTP/1.1\r\nHost: {address}\r\n");
    if let Some(cookie) = cookie {
        request.push_str(&format!("Cookie: {cookie}\r\n"));
    }
    request.push_str("Content-Length: 0\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn terminal_client_pinned_to_2025_11_25_opens_a_required_url_and_retries_once_the_server_confirms()
{
    let (_server, mcp_url) = url_mode_server();
    let origin = mcp_url.trim_end_matches("/mcp").to_owned();
    let screen = Screen::new();
    let (browser, opened) = screen.recording_browser();
    screen.run(
        &examples_dir().join("terminal_client"),
        &["--protocol", "2025-11-25", "list_files", &mcp_url],
        &[("ELICIT_BROWSER", browser.to_str().unwrap())],
    );
    // The -32042 error's URL, reviewed: plain http on an IP address.
    let review = screen.wait_for("Open this link?");
    assert!(
        review.contains("Authorization is required to access your Example Co files."),
        "{review}"
    );
    assert!(
        review.contains("the site is a bare IP address (127.0.0.1)"),
        "{review}"
    );
    screen.press(&["Up", "Up", "Enter"]);
    screen.wait_for("Waiting for the server to confirm");
    connect_in_the_browser(&origin, &opened);
    // The completion notification arrives, and the call is retried.
    screen.wait_for("The server finished elicitation");
    let (status, stdout) = screen.finish();
    assert_eq!(status, 0, "{stdout}\n{}", screen.capture(false));
    assert_eq!(
        stdout.trim(),
        "3 files: report.pdf, budget.xlsx, notes.md (read with example-co-token)"
    );
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn terminal_client_opens_a_url_asked_in_a_round_on_2026_07_28() {
    let (_server, mcp_url) = url_mode_server();
    let origin = mcp_url.trim_end_matches("/mcp").to_owned();
    let screen = Screen::new();
    let (browser, opened) = screen.recording_browser();
    screen.run(
        &examples_dir().join("terminal_client"),
        &["list_files", &mcp_url],
        &[("ELICIT_BROWSER", browser.to_str().unwrap())],
    );
    let review = screen.wait_for("Open this link?");
    assert!(
        review.contains("Connected to elicit-url-mode-server 0.1.0, speaking MCP 2026-07-28."),
        "{review}"
    );
    // On 2026-07-28 the link comes in an input-required round, not as -32042.
    assert!(
        review.contains("Connect your Example Co account to let this server read your files."),
        "{review}"
    );
    screen.press(&["Up", "Up", "Enter"]);
    // The retried call is held by the server until the browser step is done.
    connect_in_the_browser(&origin, &opened);
    let (status, stdout) = screen.finish();
    assert_eq!(status, 0, "{stdout}\n{}", screen.capture(false));
    assert_eq!(
        stdout.trim(),
        "3 files: report.pdf, budget.xlsx, notes.md (read with example-co-token)"
    );
}

/// The user's browser, once the client opened the connect page's URL (recorded in `opened`):
/// signs in at `origin`, then confirms on the page.
fn connect_in_the_browser(origin: &str, opened: &Path) {
    let url = opened_urls(opened);
    let path = url
        .trim()
        .strip_prefix(origin)
        .unwrap_or_else(|| panic!("{url} is not on {origin}"))
        .to_owned();
    assert!(path.starts_with("/connect?elicitationId="), "{path}");
    let login = browser_request(origin, "GET /login", None);
    let cookie = login
        .lines()
        .find_map(|line| {
            let lower = line.to_ascii_lowercase();
            lower.starts_with("set-cookie:").then(|| {
                line["set-cookie:".len()..]
                    .trim()
                    .split(';')
                    .next()
                    .unwrap()
                    .to_owned()
            })
        })
        .unwrap_or_else(|| panic!("no session cookie in {login}"));
    let connected = browser_request(origin, &format!("POST {path}"), Some(&cookie));
    assert!(connected.starts_with("HTTP/1.1 200"), "{connected}");
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn terminal_client_reports_a_declined_url_elicitation_to_the_server() {
    let (_server, mcp_url) = url_mode_server();
    let screen = Screen::new();
    let (browser, opened) = screen.recording_browser();
    screen.run(
        &examples_dir().join("terminal_client"),
        &["connect_example_co", &mcp_url],
        &[("ELICIT_BROWSER", browser.to_str().unwrap())],
    );
    let review = screen.wait_for("Open this link?");
    assert!(
        review.contains("Connect your Example Co account"),
        "{review}"
    );
    assert!(review.contains("speaking MCP 2026-07-28."), "{review}");
    screen.press(&["Enter"]);
    let (status, stdout) = screen.finish();
    assert_eq!(status, 0, "{stdout}\n{}", screen.capture(false));
    assert_eq!(stdout.trim(), "The user declined to connect Example Co.");
    assert!(!opened.exists(), "the browser was started");
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn tui_client_books_a_room_on_2026_07_28_as_it_negotiates() {
    tui_client_books_a_room(None, "2026-07-28");
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn tui_client_pinned_to_2025_11_25_books_a_room() {
    tui_client_books_a_room(Some("2025-11-25"), "2025-11-25");
}

/// `tui_client` books a room in the ratatui widget by keystrokes, `pinned` to a revision or
/// negotiating, and says once it is done that it spoke `spoken`.
fn tui_client_books_a_room(pinned: Option<&str>, spoken: &str) {
    let server = examples_dir().join("stdio_server");
    let program = examples_dir().join("tui_client");
    let screen = Screen::new();
    screen.run(
        &program,
        &client_args(pinned, &["book_room", server.to_str().unwrap()]),
        &[],
    );
    let form = screen.wait_for_all(&["› Check-in date *", "(•) Standard room", "Esc: cancel"]);
    assert!(
        form.starts_with("From the server elicit-hotel 0.1.0"),
        "the server's serverInfo names it on the top line:\n{form}"
    );
    // A date that does not exist is refused by the field as it is typed (over today's date,
    // the server's default).
    screen.press(&["C-u"]);
    screen.type_text("2026-02-30");
    screen.wait_for("✗ Check-in date must be a date like 2026-12-24 (February 2026 has no day 30)");
    screen.press(&["C-u"]);
    screen.type_text("2026-12-24");
    // Nights: 2 instead of the default 1; Guests: the default; Room: the suite.
    screen.press(&["Down", "BSpace"]);
    screen.type_text("2");
    screen.press(&["Down", "Down", "Right", "Right"]);
    screen.wait_for("(•) Suite");
    // Extras: breakfast and late check-out.
    screen.press(&["Down", "Space", "Right", "Right", "Space"]);
    screen.wait_for("[x] Breakfast  [ ] Parking  [x] Late check-out");
    screen.press(&["Down", "Enter"]);
    let review = screen.wait_for_all(&["Review your answers.", "[>Send<]", "Esc: cancel"]);
    for line in [
        "From the server elicit-hotel 0.1.0",
        "Nights: 2",
        "Guests: 2",
        "Room type: Suite",
        "Extras: Breakfast, Late check-out",
    ] {
        assert!(
            review.contains(line),
            "`{line}` is not in the review:\n{review}"
        );
    }
    // From the review, Guests edited: 3 after all.
    screen.press(&["Up", "Up", "Up", "Enter"]);
    screen.wait_for("› Guests");
    screen.press(&["BSpace"]);
    screen.type_text("3");
    screen.press(&["Down", "Down", "Down", "Enter"]);
    screen.wait_for("Guests: 3");
    screen.press(&["Enter"]);
    let (status, stdout) = screen.finish();
    assert_eq!(status, 0, "{stdout}\n{}", screen.capture(false));
    assert_eq!(
        stdout.trim(),
        "Booked. Booking 1001: Suite room for 3 guest(s), 2 night(s) from 2026-12-24, \
         with Breakfast, LateCheckOut."
    );
    // Once the screen is closed, what the call said stays: the revision first.
    screen.wait_for(&format!(
        "Connected to elicit-hotel 0.1.0, speaking MCP {spoken}."
    ));
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn tui_client_answers_a_form_inside_a_task() {
    let server = examples_dir().join("stdio_server");
    let program = examples_dir().join("tui_client");
    let screen = Screen::new();
    screen.run(&program, &["update_contact", server.to_str().unwrap()], &[]);
    screen.wait_for_all(&["› Name *", "Esc: cancel"]);
    screen.type_text("Ada Lovelace");
    screen.press(&["Down"]);
    screen.type_text("ada@example.com");
    screen.press(&["Down", "Down", "Down", "Enter"]);
    screen.wait_for_all(&["Review your answers.", "Email: ada@example.com", "[>Send<]"]);
    screen.press(&["Enter"]);
    let (status, stdout) = screen.finish();
    assert_eq!(status, 0, "{stdout}\n{}", screen.capture(false));
    assert_eq!(
        stdout.trim(),
        "We will write to Ada Lovelace at ada@example.com, no newsletter."
    );
    let after = screen.wait_for("speaking MCP 2026-07-28.");
    assert!(
        after.contains("The server runs the call as task "),
        "{after}"
    );
}

#[test]
#[ignore = "drives a real terminal through tmux: install it (bash .ci/tmux, or apt-get install tmux) and run with --include-ignored"]
fn tui_client_opens_a_url_asked_in_a_round_on_2026_07_28() {
    let (_server, mcp_url) = url_mode_server();
    let origin = mcp_url.trim_end_matches("/mcp").to_owned();
    let program = examples_dir().join("tui_client");
    let screen = Screen::new();
    let (browser, opened) = screen.recording_browser();
    screen.run(
        &program,
        &["list_files", &mcp_url],
        &[("ELICIT_BROWSER", browser.to_str().unwrap())],
    );
    screen.wait_for_all(&[
        "Connect your Example Co account to let this server read your files.",
        "[>Decline<]",
    ]);
    // From Decline, where the focus starts, to "Open in my browser".
    screen.press(&["Left", "Enter"]);
    connect_in_the_browser(&origin, &opened);
    let (status, stdout) = screen.finish();
    assert_eq!(status, 0, "{stdout}\n{}", screen.capture(false));
    assert_eq!(
        stdout.trim(),
        "3 files: report.pdf, budget.xlsx, notes.md (read with example-co-token)"
    );
    let after = screen.wait_for("speaking MCP 2026-07-28.");
    assert!(after.contains("Opened http://127.0.0.1:"), "{after}");
}

#[test]
fn tui_client_without_a_terminal_fails_at_once() {
    let server = examples_dir().join("stdio_server");
    let output = Command::new(examples_dir().join("tui_client"))
        .args(["book_room", server.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("stdin is not a terminal"), "{stderr}");
}
