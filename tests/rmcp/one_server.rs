//! What the one `Elicitation` of a server promises beyond a single ask, on rmcp's in-memory
//! duplex: work before an ask runs once (`Ask::step`) on both revisions and when a call
//! continues as a task, and a replay whose steps differ is refused; a setup that cannot hold
//! (URL mode with no user) stops the server before it serves; and on 2025-11-25 a waiting ask
//! tells the client so on the call's progress token, and the call's cancellation withdraws it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::tasks::{result_text, settled, task_id, tasks_extension};
use elicit_mcp::http::Guard;
use elicit_mcp::rmcp::{Ask, ElicitError, Elicitation, SetupError, Tasks};
use elicit_mcp::server::{ElicitationTracker, SecureForms, UrlPolicy, UserId};
use elicit_mcp::wire::ElicitationCapability;
use elicit_mcp::{Elicit, ElicitOutcome};
use elicit_test_support::rmcp::{client_info, completed_text, input_required, seal, serve};
use rmcp::model::{self as sdk, CallToolResult, ContentBlock, ErrorData, ProtocolVersion};
use rmcp::service::{NotificationContext, RequestContext, RoleClient, RunningService};
use rmcp::{ClientHandler, tool, tool_router};
use serde_json::json;
use tokio::sync::mpsc;

#[derive(Debug, Elicit)]
#[elicit(message = "Confirm the order?", key = "confirm")]
struct Confirm {
    confirmed: bool,
}

#[derive(Debug, Elicit)]
#[elicit(message = "Which size?", key = "size")]
struct Size {
    #[elicit(minimum = 1, maximum = 3)]
    size: u8,
}

/// A shop whose tools reserve stock before they ask: the reservation must happen once.
#[derive(Clone, Default)]
struct Shop {
    reservations: Arc<AtomicUsize>,
    /// Runs of `flaky`: its first run takes a step, the later ones do not.
    flaky_runs: Arc<AtomicUsize>,
    /// How each ask of `patient` ended, as the handler saw it.
    patient: Arc<Mutex<Vec<String>>>,
}

impl Shop {
    /// Reserves stock: the side effect that must not repeat. Its number, from 100.
    async fn reserve(&self) -> usize {
        100 + self.reservations.fetch_add(1, Ordering::SeqCst)
    }
}

#[tool_router(server_handler)]
impl Shop {
    #[tool(description = "Reserves, then asks two forms (two rounds on 2026-07-28)")]
    async fn order(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let reservation: usize = ask.step(|| self.reserve()).await?;
        let confirm = ask.form::<Confirm>().await?;
        let size = ask.form::<Size>().await?;
        let size = match size {
            ElicitOutcome::Accepted(Size { size }) => size,
            _ => 0,
        };
        Ok(text(format!(
            "reservation {reservation}: {}, size {size}",
            said(&confirm)
        )))
    }

    #[tool(description = "Reserves, asks, then goes on as a task")]
    async fn order_then_task(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let reservation: usize = ask.step(|| self.reserve()).await?;
        let confirm = ask.form::<Confirm>().await?;
        ask.continue_as_task().await?;
        Ok(text(format!(
            "reservation {reservation}: {}",
            said(&confirm)
        )))
    }

    #[tool(description = "Takes a step on its first run only: the handler's mistake")]
    async fn flaky(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        if self.flaky_runs.fetch_add(1, Ordering::SeqCst) == 0 {
            let _: usize = ask.step(|| self.reserve()).await?;
        }
        match ask.form::<Confirm>().await {
            Ok(outcome) => Ok(text(said(&outcome).to_owned())),
            Err(error) => Ok(text(error.to_string())),
        }
    }

    #[tool(description = "Asks and waits as long as the user takes")]
    async fn patient(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let outcome = match ask.form::<Confirm>().await {
            Ok(outcome) => said(&outcome).to_owned(),
            Err(error @ ElicitError::CallCancelled) => format!("ended: {error}"),
            Err(error) => format!("other error: {error}"),
        };
        self.patient.lock().unwrap().push(outcome.clone());
        Ok(text(outcome))
    }
}

/// What the user said to the confirmation.
fn said(outcome: &ElicitOutcome<Confirm>) -> &'static str {
    match outcome {
        ElicitOutcome::Accepted(Confirm { confirmed: true }) => "confirmed",
        ElicitOutcome::Accepted(Confirm { confirmed: false }) => "not confirmed",
        _ => "no answer",
    }
}

fn text(text: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

fn shop() -> (Elicitation, Shop) {
    let tasks = Tasks::new().required_after_asks("order_then_task");
    (Elicitation::new(seal()).with_tasks(tasks), Shop::default())
}

/// A client that confirms and picks size 2, after `delay`; the progress it hears and the
/// requests the server withdraws go to `heard`.
#[derive(Clone)]
struct Buyer {
    protocol: ProtocolVersion,
    delay: Duration,
    tasks: bool,
    heard: mpsc::UnboundedSender<String>,
}

impl ClientHandler for Buyer {
    fn get_info(&self) -> sdk::ClientConfig {
        let form = ElicitationCapability::form();
        let mut info = client_info("buyer", self.protocol.clone(), Some(&form), false);
        if self.tasks {
            info.capabilities.extensions = tasks_extension().extensions;
        }
        info
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, ErrorData> {
        let message = serde_json::to_value(&request).unwrap()["message"].clone();
        tokio::select! {
            _ = tokio::time::sleep(self.delay) => {}
            _ = context.ct.cancelled() => {
                let _ = self.heard.send(format!("withdrawn: {message}"));
                return Err(ErrorData::internal_error("withdrawn", None));
            }
        }
        let content = if message == "Which size?" {
            json!({"size": 2})
        } else {
            json!({"confirmed": true})
        };
        Ok(serde_json::from_value(json!({"action": "accept", "content": content})).unwrap())
    }

    async fn on_progress(
        &self,
        params: sdk::ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let said = params.message.unwrap_or_default();
        let _ = self
            .heard
            .send(format!("progress {}: {said}", params.progress));
    }
}

async fn buyer(
    protocol: ProtocolVersion,
    delay: Duration,
    tasks: bool,
) -> (
    Shop,
    RunningService<RoleClient, Buyer>,
    mpsc::UnboundedReceiver<String>,
) {
    let (elicitation, shop) = shop();
    let (heard, hearing) = mpsc::unbounded_channel();
    let client = Buyer {
        protocol: protocol.clone(),
        delay,
        tasks,
        heard,
    };
    let (_, client) = serve(&elicitation, shop.clone(), client, protocol).await;
    (shop, client, hearing)
}

fn call(tool: &str) -> sdk::CallToolRequestParams {
    sdk::CallToolRequestParams::new(tool.to_owned())
}

#[tokio::test]
async fn work_before_the_asks_runs_once_on_both_revisions() {
    for protocol in [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25] {
        let (shop, client, _) = buyer(protocol.clone(), Duration::ZERO, false).await;
        // rmcp's client answers each round and retries: three runs of the method on
        // 2026-07-28, one on 2025-11-25.
        let done = client.call_tool(call("order")).await.unwrap();
        assert_eq!(
            done.content[0].as_text().unwrap().text,
            "reservation 100: confirmed, size 2",
            "{protocol}"
        );
        assert_eq!(shop.reservations.load(Ordering::SeqCst), 1, "{protocol}");
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_step_taken_in_the_rounds_is_not_taken_again_in_the_task_they_continue_as() {
    let (shop, client, _) = buyer(ProtocolVersion::V_2026_07_28, Duration::ZERO, true).await;
    let first = input_required(
        client
            .call_tool_once(call("order_then_task"))
            .await
            .unwrap(),
    );
    assert_eq!(shop.reservations.load(Ordering::SeqCst), 1);
    let answer = json!({"confirm": {"action": "accept", "content": {"confirmed": true}}});
    let retry = call("order_then_task")
        .with_input_responses(serde_json::from_value(answer).unwrap())
        .with_request_state(first.request_state.unwrap());
    let task = task_id(client.call_tool_once(retry).await.unwrap());
    let done = settled(&client, &task).await;
    assert_eq!(result_text(&done), "reservation 100: confirmed");
    assert_eq!(shop.reservations.load(Ordering::SeqCst), 1);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_replay_that_skips_a_recorded_step_is_the_handlers_mistake_said_so() {
    let (_, client, _) = buyer(ProtocolVersion::V_2026_07_28, Duration::ZERO, false).await;
    let first = input_required(client.call_tool_once(call("flaky")).await.unwrap());
    let answer = json!({"confirm": {"action": "accept", "content": {"confirmed": true}}});
    let retry = call("flaky")
        .with_input_responses(serde_json::from_value(answer).unwrap())
        .with_request_state(first.request_state.unwrap());
    let said = completed_text(client.call_tool_once(retry).await.unwrap());
    assert!(said.contains("step"), "{said}");
    assert!(said.contains("a form"), "{said}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn on_2025_11_25_a_waiting_ask_tells_the_call_s_progress_token_that_the_server_waits() {
    // Longer than one progress interval (10 s): the client hears before it answers.
    let delay = Duration::from_secs(11);
    let (_, client, mut heard) = buyer(ProtocolVersion::V_2025_11_25, delay, false).await;
    let done = client.call_tool(call("patient")).await.unwrap();
    assert_eq!(done.content[0].as_text().unwrap().text, "confirmed");
    let progress = heard
        .try_recv()
        .expect("a progress notification while the ask waited");
    assert_eq!(progress, "progress 10: waiting for the user to answer");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn on_2025_11_25_the_call_s_cancellation_withdraws_its_ask_at_once() {
    let (shop, client, mut heard) = buyer(
        ProtocolVersion::V_2025_11_25,
        Duration::from_secs(600),
        false,
    )
    .await;
    // rmcp's client sends `notifications/cancelled` when the call's future is dropped.
    let gave_up = tokio::time::timeout(
        Duration::from_millis(300),
        client.call_tool_once(call("patient")),
    );
    assert!(gave_up.await.is_err(), "the user never answers");
    let withdrawn = tokio::time::timeout(Duration::from_secs(5), heard.recv())
        .await
        .expect("the server withdrew its request in time");
    assert_eq!(
        withdrawn.as_deref(),
        Some("withdrawn: \"Confirm the order?\"")
    );
    let ended = async {
        loop {
            if let Some(outcome) = shop.patient.lock().unwrap().first().cloned() {
                return outcome;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    let ended = tokio::time::timeout(Duration::from_secs(5), ended)
        .await
        .expect("the handler's ask ended");
    assert_eq!(
        ended,
        "ended: the client cancelled the call while it waited for the user's answer"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn url_mode_without_a_user_stops_the_server_before_it_serves() {
    let url_mode = || {
        let tracker = Arc::new(ElicitationTracker::new(UrlPolicy::production()));
        Elicitation::new(seal()).with_url_mode(tracker)
    };
    let (server_io, _client_io) = tokio::io::duplex(64);
    let refused = url_mode()
        .serve_directly(Shop::default(), server_io, None)
        .map(drop)
        .unwrap_err();
    assert_eq!(
        refused,
        SetupError::UrlModeWithoutUser {
            serving: "a transport of one connection (stdio)"
        }
    );
    assert_eq!(
        refused.to_string(),
        "the elicitation asks in URL mode, which binds each elicitation to its user, but it \
         serves a transport of one connection (stdio) without knowing who the user is: give \
         `Elicitation::with_authentication` (HTTP) or `Elicitation::with_local_user` (stdio)"
    );
    let sessions = || {
        Arc::new(
            rmcp::transport::streamable_http_server::session::local::LocalSessionManager::default(),
        )
    };
    let config = rmcp::transport::StreamableHttpServerConfig::default;
    let over_http = Guard::new()
        .serve(&url_mode(), Shop::default, sessions(), config())
        .map(drop)
        .unwrap_err();
    assert_eq!(
        over_http,
        SetupError::UrlModeWithoutUser {
            serving: "streamable HTTP"
        }
    );

    // `main` returning the error prints its `Debug`: the message, not the variant's fields.
    assert_eq!(format!("{refused:?}"), refused.to_string());

    // Said once, the user makes the same setups hold.
    let alice = UserId::from_verified_subject("alice").unwrap();
    let (server_io, _client_io) = tokio::io::duplex(64);
    assert!(
        url_mode()
            .with_local_user(alice)
            .serve_directly(Shop::default(), server_io, None)
            .is_ok()
    );
    let authenticated = url_mode().with_authentication(|_: &axum::http::request::Parts| {
        UserId::from_verified_subject("alice")
            .map_err(|_| elicit_mcp::http::Unauthenticated::bearer(""))
    });
    assert!(
        Guard::new()
            .serve(&authenticated, Shop::default, sessions(), config())
            .is_ok()
    );
}

#[tokio::test]
async fn a_task_tool_the_server_does_not_list_is_refused_at_start_not_on_its_first_call() {
    let elicitation = Elicitation::new(seal()).with_tasks(Tasks::new().optional("ordr"));
    let (server_io, _client_io) = tokio::io::duplex(64);
    let refused = elicitation
        .serve_directly(Shop::default(), server_io, None)
        .map(drop)
        .unwrap_err();
    assert!(matches!(refused, SetupError::Tasks(_)), "{refused:?}");
}

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`).
#[test]
fn every_form_here_agrees_with_jsonschema() {
    elicit_test_support::agree_with_jsonschema!(Confirm, Size);
}

#[tokio::test]
async fn a_secure_page_without_url_mode_stops_the_server_before_it_serves() {
    let forms = SecureForms::new("https://shop.example/secure").unwrap();
    let alice = UserId::from_verified_subject("alice").unwrap();
    let (server_io, _client_io) = tokio::io::duplex(64);
    let refused = Elicitation::new(seal())
        .with_local_user(alice)
        .with_secure_page(forms)
        .serve_directly(Shop::default(), server_io, None)
        .map(drop)
        .unwrap_err();
    assert_eq!(refused, SetupError::SecurePageWithoutUrlMode);
    assert_eq!(
        format!("{refused:?}"),
        "the elicitation has a secure page (`Elicitation::with_secure_page`), whose forms go \
         through URL mode, but no URL mode: give `Elicitation::with_url_mode` the tracker the \
         page completes"
    );
}
