//! The ratatui widget (`elicit_mcp::client::tui`) drawn on ratatui's `TestBackend`: what each
//! field kind looks like, how it is answered by keys, what is refused and why, the review,
//! decline, cancel, URL consent, a small area that scrolls, and drawing without colour.

use elicit_mcp::client::ServerIdentity;
use elicit_mcp::client::tui::{ElicitWidget, Status};
use elicit_mcp::client::validate_request;
use elicit_mcp::wire::{ElicitRequestParams, ElicitationCapability};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::{Color, Modifier};
use serde_json::{Value, json};

fn hotel() -> ServerIdentity {
    ServerIdentity::new("elicit-hotel").with_version("0.1.0")
}

/// A widget for these `elicitation/create` params, checked as a client checks them.
fn widget(params: Value) -> ElicitWidget {
    let request = validate_request(&params, Some(&ElicitationCapability::form_and_url()))
        .expect("a valid request");
    ElicitWidget::new(hotel(), &request).expect("a URL that can be offered")
}

fn form(properties: Value, required: &[&str]) -> ElicitWidget {
    widget(
        json!({"message": "Tell us about your stay", "requestedSchema": {
        "type": "object", "properties": properties, "required": required}}),
    )
}

/// The widget drawn into a `width` x `height` screen.
fn draw(widget: &mut ElicitWidget, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| frame.render_widget(&mut *widget, frame.area()))
        .unwrap();
    terminal.backend().buffer().clone()
}

/// The screen's text, one line a row, trailing blanks trimmed.
fn text(buffer: &Buffer) -> String {
    let area = buffer.area;
    (0..area.height)
        .map(|y| {
            let row: String = (0..area.width)
                .map(|x| buffer[(x, y)].symbol().to_owned())
                .collect();
            row.trim_end().to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn screen(widget: &mut ElicitWidget) -> String {
    text(&draw(widget, 90, 40))
}

fn press(widget: &mut ElicitWidget, codes: &[KeyCode]) -> Status {
    let mut status = Status::Editing;
    for &code in codes {
        // Drawn between keys, as a host's loop does.
        draw(widget, 90, 40);
        status = widget.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
    }
    status
}

fn type_text(widget: &mut ElicitWidget, text: &str) {
    let codes: Vec<KeyCode> = text.chars().map(KeyCode::Char).collect();
    press(widget, &codes);
}

fn done(status: Status) -> Value {
    match status {
        Status::Done(result) => serde_json::to_value(result).unwrap(),
        other => panic!("not done: {other:?}"),
    }
}

fn assert_shows(screen: &str, texts: &[&str]) {
    for text in texts {
        assert!(
            screen.contains(text),
            "`{text}` is not on the screen:\n{screen}"
        );
    }
}

#[test]
fn every_field_kind_is_drawn_with_its_label_help_and_default() {
    let mut widget = form(
        json!({
            "name": {"type": "string", "title": "Full name", "description": "As on your card",
                "minLength": 2, "default": "Ada"},
            "email": {"type": "string", "title": "Email", "format": "email"},
            "nights": {"type": "integer", "title": "Nights", "minimum": 1, "maximum": 30,
                "default": 2},
            "weight": {"type": "number", "title": "Weight in kg"},
            "gift": {"type": "boolean", "title": "Gift wrap", "default": true},
            "size": {"type": "string", "title": "Size", "enum": ["S", "M", "L"], "default": "M"},
            "room": {"type": "string", "title": "Room", "oneOf": [
                {"const": "std", "title": "Standard room"}, {"const": "suite", "title": "Suite"}]},
            "post": {"type": "string", "title": "Shipping", "enum": ["std", "exp"],
                "enumNames": ["Standard post", "Express courier"]},
            "extras": {"type": "array", "title": "Extras", "maxItems": 2, "items": {"anyOf": [
                {"const": "b", "title": "Breakfast"}, {"const": "p", "title": "Parking"}]},
                "default": ["p"]}
        }),
        &["name", "room"],
    );
    let screen = screen(&mut widget);
    assert!(
        screen.starts_with("From the server elicit-hotel 0.1.0"),
        "{screen}"
    );
    assert_shows(
        &screen,
        &[
            "Tell us about your stay",
            "Fields marked * are required.",
            "› Full name *",
            "[Ada ]",
            "As on your card · at least 2 characters",
            "  Email",
            "an email address like name@example.com",
            "[2]",
            "a whole number from 1 to 30",
            "a number",
            "(•) Yes  ( ) No",
            "( ) (leave empty)  ( ) S  (•) M  ( ) L",
            "  Room *",
            "(•) Standard room  ( ) Suite",
            "( ) Standard post  ( ) Express courier",
            "[ ] Breakfast  [x] Parking",
            "tick at most 2",
            "[ Review and send ]  [ Decline ]  [ Cancel ]",
        ],
    );
    // Untouched fields show no verdict yet, though Email is empty and Weight too.
    assert!(!screen.contains('✗'), "{screen}");
}

/// A derived form as a server sends it: every field titled from its Rust name (but the one
/// that opts out), and choices titled from their variants' names.
#[derive(elicit_mcp::Elicit)]
#[elicit(message = "Tell us about your stay", rename_all = "camelCase")]
#[allow(dead_code)]
struct Stay {
    check_in: String,
    #[elicit(untitled)]
    nights: u8,
    delivery: Delivery,
}

#[derive(elicit_mcp::Elicit)]
#[elicit(rename_all = "camelCase")]
#[allow(dead_code)]
enum Delivery {
    NextDay,
    SameWeek,
}

#[test]
fn a_derived_form_is_labelled_by_its_titles_and_answered_under_its_keys() {
    use elicit_mcp::Elicit;
    let params = serde_json::to_value(Stay::form_request()).unwrap();
    let mut widget = widget(params);
    let shown = screen(&mut widget);
    // The titles made from the Rust names are the labels; a field without one shows its key.
    assert_shows(
        &shown,
        &[
            "› Check in *",
            "  nights *",
            "  Delivery *",
            "(•) Next day  ( ) Same week",
        ],
    );
    assert!(!shown.contains("checkIn"), "{shown}");
    type_text(&mut widget, "2026-12-24");
    press(&mut widget, &[KeyCode::Down]);
    type_text(&mut widget, "2");
    press(&mut widget, &[KeyCode::Down, KeyCode::Right]);
    press(&mut widget, &[KeyCode::Down, KeyCode::Enter]);
    let review = screen(&mut widget);
    assert_shows(
        &review,
        &["Check in: 2026-12-24", "nights: 2", "Delivery: Same week"],
    );
    // The answer goes back under the wire names, whatever the labels said.
    assert_eq!(
        done(press(&mut widget, &[KeyCode::Enter])),
        json!({"action": "accept", "content": {"checkIn": "2026-12-24", "nights": 2,
            "delivery": "sameWeek"}})
    );
}

#[test]
fn every_field_kind_is_answered_by_keys_and_sent_after_review() {
    let mut widget = form(
        json!({
            "name": {"type": "string", "title": "Name"},
            "nights": {"type": "integer", "title": "Nights", "minimum": 1},
            "score": {"type": "number", "title": "Score"},
            "vip": {"type": "boolean", "title": "VIP"},
            "size": {"type": "string", "title": "Size", "enum": ["S", "M", "L"]},
            "room": {"type": "string", "title": "Room", "oneOf": [
                {"const": "std", "title": "Standard"}, {"const": "suite", "title": "Suite"}]},
            "post": {"type": "string", "title": "Post", "enum": ["std", "exp"],
                "enumNames": ["Standard post", "Express courier"]},
            "tags": {"type": "array", "title": "Tags",
                "items": {"type": "string", "enum": ["new", "sale", "eco"]}}
        }),
        &[
            "name", "nights", "score", "vip", "size", "room", "post", "tags",
        ],
    );
    type_text(&mut widget, "Zoë");
    press(&mut widget, &[KeyCode::Enter]);
    type_text(&mut widget, "3");
    press(&mut widget, &[KeyCode::Down]);
    type_text(&mut widget, "2.5");
    press(
        &mut widget,
        &[KeyCode::Tab, KeyCode::Char('y'), KeyCode::Down],
    );
    press(
        &mut widget,
        &[KeyCode::Right, KeyCode::Right, KeyCode::Down],
    );
    press(&mut widget, &[KeyCode::Right, KeyCode::Down]);
    press(&mut widget, &[KeyCode::Right, KeyCode::Down]);
    press(
        &mut widget,
        &[
            KeyCode::Char(' '),
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Char(' '),
        ],
    );
    press(&mut widget, &[KeyCode::Down, KeyCode::Enter]);
    let review = screen(&mut widget);
    assert_shows(
        &review,
        &[
            "From the server elicit-hotel 0.1.0",
            "Review your answers.",
            "Name: Zoë",
            "Nights: 3",
            "Score: 2.5",
            "VIP: Yes",
            "Size: L",
            "Room: Suite",
            "Post: Express courier",
            "Tags: new, eco",
            "[>Send<]  [ Edit ]  [ Decline ]  [ Cancel ]",
        ],
    );
    assert_eq!(
        done(press(&mut widget, &[KeyCode::Enter])),
        json!({"action": "accept", "content": {"name": "Zoë", "nights": 3, "score": 2.5,
            "vip": true, "size": "L", "room": "suite", "post": "exp", "tags": ["new", "eco"]}})
    );
}

#[test]
fn invalid_input_is_shown_by_the_field_as_it_is_typed() {
    let mut widget = form(
        json!({
            "name": {"type": "string", "title": "Name", "minLength": 3},
            "code": {"type": "string", "title": "Code", "pattern": "^[A-Z]{3}$"},
            "day": {"type": "string", "title": "Day", "format": "date"},
            "nights": {"type": "integer", "title": "Nights", "minimum": 1, "maximum": 30}
        }),
        &["name", "code", "day", "nights"],
    );
    type_text(&mut widget, "Al");
    assert_shows(
        &screen(&mut widget),
        &["✗ Name must be at least 3 characters long, got 2"],
    );
    type_text(&mut widget, "an");
    assert!(!screen(&mut widget).contains("✗ Name"));
    // Left without typing: a required field says so once left.
    press(&mut widget, &[KeyCode::Down, KeyCode::Down]);
    assert_shows(&screen(&mut widget), &["✗ Code is required"]);
    press(&mut widget, &[KeyCode::Up]);
    type_text(&mut widget, "abc");
    assert_shows(
        &screen(&mut widget),
        &["✗ Code must match the pattern ^[A-Z]{3}$"],
    );
    press(&mut widget, &[KeyCode::Down]);
    type_text(&mut widget, "2024-02-30");
    assert_shows(
        &screen(&mut widget),
        &["✗ Day must be a date like 2026-12-24"],
    );
    press(&mut widget, &[KeyCode::Down]);
    type_text(&mut widget, "x");
    assert_shows(
        &screen(&mut widget),
        &["✗ Nights must be a whole number, got \"x\""],
    );
    press(&mut widget, &[KeyCode::Backspace]);
    type_text(&mut widget, "31");
    assert_shows(
        &screen(&mut widget),
        &["✗ Nights must be at most 30, got 31"],
    );
}

#[test]
fn send_is_refused_with_every_reason_until_the_content_validates() {
    let mut widget = form(
        json!({
            "name": {"type": "string", "title": "Name"},
            "picks": {"type": "array", "title": "Picks", "minItems": 1, "maxItems": 1,
                "items": {"type": "string", "enum": ["a", "b"]}}
        }),
        &["name", "picks"],
    );
    // Straight to "Review and send".
    let status = press(&mut widget, &[KeyCode::Down, KeyCode::Down, KeyCode::Enter]);
    assert_eq!(status, Status::Editing);
    let refused = screen(&mut widget);
    assert_shows(
        &refused,
        &[
            "The form cannot be sent yet:",
            "✗ Name is required",
            "✗ Picks needs at least 1 selected, got 0",
            "› Name *",
        ],
    );
    assert!(!refused.contains("Review your answers"), "{refused}");
    type_text(&mut widget, "Ada");
    // Both ticked: too many.
    press(
        &mut widget,
        &[
            KeyCode::Down,
            KeyCode::Char(' '),
            KeyCode::Right,
            KeyCode::Char(' '),
        ],
    );
    press(&mut widget, &[KeyCode::Down, KeyCode::Enter]);
    assert_shows(
        &screen(&mut widget),
        &["✗ Picks allows at most 1 selected, got 2", "› Picks *"],
    );
    press(
        &mut widget,
        &[KeyCode::Char(' '), KeyCode::Down, KeyCode::Enter],
    );
    assert_shows(&screen(&mut widget), &["Review your answers.", "Picks: a"]);
    assert_eq!(
        done(press(&mut widget, &[KeyCode::Enter])),
        json!({"action": "accept", "content": {"name": "Ada", "picks": ["a"]}})
    );
}

#[test]
fn an_answer_is_edited_from_the_review() {
    let mut widget = form(
        json!({
            "name": {"type": "string", "title": "Name", "default": "Ada"},
            "guests": {"type": "integer", "title": "Guests", "minimum": 1, "maximum": 4,
                "default": 2}
        }),
        &[],
    );
    press(&mut widget, &[KeyCode::Down, KeyCode::Down, KeyCode::Enter]);
    assert_shows(&screen(&mut widget), &["Name: Ada", "Guests: 2"]);
    // Up from Send to the answer Guests, Enter edits it.
    press(&mut widget, &[KeyCode::Up, KeyCode::Enter]);
    let editing = screen(&mut widget);
    assert_shows(&editing, &["› Guests", "[2 ]", "[ Review and send ]"]);
    press(&mut widget, &[KeyCode::Backspace]);
    type_text(&mut widget, "3");
    press(&mut widget, &[KeyCode::Down, KeyCode::Enter]);
    assert_shows(&screen(&mut widget), &["Guests: 3"]);
    assert_eq!(
        done(press(&mut widget, &[KeyCode::Enter])),
        json!({"action": "accept", "content": {"name": "Ada", "guests": 3}})
    );
}

#[test]
fn decline_and_cancel_are_buttons_and_esc_cancels() {
    let properties = json!({"name": {"type": "string", "title": "Name"}});
    let mut declined = form(properties.clone(), &["name"]);
    assert_eq!(
        done(press(
            &mut declined,
            &[KeyCode::Down, KeyCode::Right, KeyCode::Enter]
        )),
        json!({"action": "decline"})
    );
    let mut cancelled = form(properties.clone(), &["name"]);
    assert_eq!(
        done(press(
            &mut cancelled,
            &[
                KeyCode::Down,
                KeyCode::Right,
                KeyCode::Right,
                KeyCode::Enter
            ]
        )),
        json!({"action": "cancel"})
    );
    // From the review too.
    let mut reviewed = form(properties.clone(), &[]);
    press(&mut reviewed, &[KeyCode::Down, KeyCode::Enter]);
    assert_shows(&screen(&mut reviewed), &["[ Decline ]"]);
    assert_eq!(
        done(press(
            &mut reviewed,
            &[KeyCode::Right, KeyCode::Right, KeyCode::Enter]
        )),
        json!({"action": "decline"})
    );
    let mut escaped = form(properties, &["name"]);
    type_text(&mut escaped, "Ad");
    assert_eq!(
        done(press(&mut escaped, &[KeyCode::Esc])),
        json!({"action": "cancel"})
    );
    // Done is final: later keys change nothing.
    assert_eq!(
        done(press(&mut escaped, &[KeyCode::Enter])),
        json!({"action": "cancel"})
    );
}

fn suspicious_url() -> Value {
    json!({"mode": "url", "elicitationId": "e-1", "message": "Sign in to connect your account.",
        "url": "http://github.com@login.xn--pple-43d.com/connect?step=1"})
}

#[test]
fn url_consent_shows_the_link_its_domain_and_every_warning_with_decline_focused() {
    let mut widget = widget(suspicious_url());
    let buffer = draw(&mut widget, 110, 24);
    let screen = text(&buffer);
    assert_shows(
        &screen,
        &[
            "From the server elicit-hotel 0.1.0",
            "Sign in to connect your account.",
            "http://github.com@login.xn--pple-43d.com/connect?step=1",
            "site: \u{430}pple.com (address login.\u{430}pple.com)",
            "⚠ warning: the connection is not encrypted",
            "\"github.com@\" before the domain is not where the link goes",
            "it reads \"login.\u{430}pple.com\" but is \"login.xn--pple-43d.com\"",
            "imitates \"login.apple.com\"",
            "[ Open in my browser ]  [>Decline<]  [ Cancel ]",
        ],
    );
    // The registrable domain, and only it, is underlined in the URL.
    let row = screen
        .lines()
        .position(|line| line.contains("http://github.com@"))
        .unwrap() as u16;
    let line: String = screen.lines().nth(usize::from(row)).unwrap().to_owned();
    let start = line.find("xn--pple-43d.com").unwrap() as u16;
    let underlined = |x: u16| buffer[(x, row)].modifier.contains(Modifier::UNDERLINED);
    assert!((start..start + 16).all(underlined), "{line}");
    assert!(!underlined(start - 1) && !underlined(start + 16), "{line}");
    assert_eq!(
        done(press(&mut widget, &[KeyCode::Enter])),
        json!({"action": "decline"})
    );
    assert_eq!(widget.consented_url(), None);
}

#[test]
fn url_consent_given_hands_the_host_the_url_to_open() {
    let mut widget = widget(json!({"mode": "url", "elicitationId": "e-2",
        "message": "Connect your calendar.", "url": "https://calendar.example.com/oauth?state=abc"}));
    let screen = screen(&mut widget);
    assert_shows(
        &screen,
        &["site: example.com (address calendar.example.com)"],
    );
    assert!(!screen.contains("warning"), "{screen}");
    assert_eq!(widget.consented_url(), None);
    assert_eq!(
        done(press(&mut widget, &[KeyCode::Left, KeyCode::Enter])),
        json!({"action": "accept"})
    );
    assert_eq!(
        widget.consented_url(),
        Some("https://calendar.example.com/oauth?state=abc")
    );
    let mut cancelled = self::widget(suspicious_url());
    assert_eq!(
        done(press(&mut cancelled, &[KeyCode::Tab, KeyCode::Enter])),
        json!({"action": "cancel"})
    );
    assert_eq!(cancelled.consented_url(), None);
}

#[test]
fn a_small_area_scrolls_to_keep_the_focus_and_the_server_in_view() {
    let properties: serde_json::Map<String, Value> = (1..=8)
        .map(|n| {
            (
                format!("f{n}"),
                json!({"type": "string", "title": format!("Field {n}")}),
            )
        })
        .collect();
    let mut widget = form(Value::Object(properties), &[]);
    let top = text(&draw(&mut widget, 40, 10));
    assert_shows(
        &top,
        &["From the server elicit-hotel 0.1.0", "› Field 1", "↓"],
    );
    assert!(!top.contains("Field 8"), "{top}");
    for _ in 0..7 {
        widget.handle_key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
        draw(&mut widget, 40, 10);
    }
    let bottom = text(&draw(&mut widget, 40, 10));
    assert_shows(
        &bottom,
        &["From the server elicit-hotel 0.1.0", "› Field 8", "↑"],
    );
    assert!(!bottom.contains("Field 1\n"), "{bottom}");
    // To the buttons: the row of buttons comes into view.
    widget.handle_key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    assert_shows(&text(&draw(&mut widget, 40, 10)), &["[>Review and send<]"]);
    // A resize to a large area shows everything; a tiny one draws without panicking.
    assert_shows(&text(&draw(&mut widget, 80, 40)), &["Field 1", "Field 8"]);
    for (width, height) in [(1, 1), (5, 2), (12, 3)] {
        draw(&mut widget, width, height);
    }
}

#[test]
fn without_colour_nothing_is_coloured_and_the_focus_still_shows() {
    let request: ElicitRequestParams = serde_json::from_value(suspicious_url()).unwrap();
    for colors in [false, true] {
        let mut widget = ElicitWidget::new(hotel(), &request)
            .unwrap()
            .with_colors(colors);
        let buffer = draw(&mut widget, 110, 24);
        let coloured = buffer
            .content()
            .iter()
            .any(|cell| cell.fg != Color::Reset || cell.bg != Color::Reset);
        assert_eq!(coloured, colors);
        let focused = buffer
            .content()
            .iter()
            .filter(|cell| cell.modifier.contains(Modifier::REVERSED))
            .map(|cell| cell.symbol())
            .collect::<String>();
        assert_eq!(focused, "[>Decline<]");
    }
}

#[test]
fn a_form_nobody_can_answer_says_why_and_can_only_be_declined() {
    let mut widget = form(
        json!({"size": {"type": "string", "title": "Size", "enum": []}}),
        &["size"],
    );
    assert_shows(
        &screen(&mut widget),
        &[
            "This form cannot be filled in:",
            "✗ Size is required, and it offers no choices",
        ],
    );
    press(&mut widget, &[KeyCode::Down, KeyCode::Enter]);
    assert_shows(&screen(&mut widget), &["The form cannot be sent yet:"]);
    assert_eq!(
        done(press(
            &mut widget,
            &[KeyCode::Down, KeyCode::Right, KeyCode::Enter]
        )),
        json!({"action": "decline"})
    );
}

#[test]
fn a_url_consent_in_a_small_area_is_read_from_its_top_and_scrolled_to_its_choice() {
    let mut widget = widget(suspicious_url());
    let first = text(&draw(&mut widget, 40, 9));
    assert_shows(
        &first,
        &[
            "From the server elicit-hotel 0.1.0",
            "Sign in to connect",
            "↓",
        ],
    );
    assert!(!first.contains("Decline"), "{first}");
    // ↓ scrolls a line at a time; PageDown by the page, down to the choice.
    widget.handle_key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    let scrolled = text(&draw(&mut widget, 40, 9));
    assert!(!scrolled.contains("Sign in to connect"), "{scrolled}");
    assert_shows(&scrolled, &["↑"]);
    for _ in 0..6 {
        widget.handle_key(KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE));
        draw(&mut widget, 40, 9);
    }
    let bottom = text(&draw(&mut widget, 40, 9));
    assert_shows(
        &bottom,
        &["From the server elicit-hotel 0.1.0", "[>Decline<]"],
    );
    // Back up to the top.
    for _ in 0..6 {
        widget.handle_key(KeyEvent::new(KeyCode::PageUp, KeyModifiers::NONE));
        draw(&mut widget, 40, 9);
    }
    assert_shows(&text(&draw(&mut widget, 40, 9)), &["Sign in to connect"]);
    assert_eq!(
        done(widget.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE))),
        json!({"action": "decline"})
    );
}

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`).
#[test]
fn every_form_here_agrees_with_jsonschema() {
    elicit_test_support::agree_with_jsonschema!(Stay);
}
