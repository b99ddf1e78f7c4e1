//! `Ask` inside a task (the extension `io.modelcontextprotocol/tasks`): each ask is an input
//! request of the task, which is `input_required` exactly while one waits; `tasks/update`
//! answers it. Forms, two forms at once with partial answers, re-asks under fresh keys with
//! the right answers kept, a dropped ask withdrawn, sampling and roots, cancellation, and a
//! method that asks in rounds and then continues as a task. On the in-memory duplex on both
//! revisions, and over streamable HTTP with the conformance server's `confirm_delete`,
//! `multi_input` and `test_tool_with_task`, and two replicas.

#![allow(deprecated)] // rmcp deprecates sampling and roots (SEP-2577).

use std::time::Duration;

use crate::tasks::{
    call, conformance_over_http, http_client, negotiating, result_text, settled, task_id,
    tasks_extension,
};
use elicit_mcp::Elicit;
use elicit_mcp::rmcp::{Ask, Elicitation, Tasks};
use elicit_test_support::rmcp::{client_info, seal, serve};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    self as sdk, CallToolResult, ContentBlock, ErrorData, InputRequest, ProtocolVersion,
    TaskPayload, TaskStatus,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::{ClientHandler, ServerHandler, tool, tool_handler, tool_router};
use serde::Serialize;
use serde_json::{Value, json};

#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Who is the table for?", key = "guest")]
struct Guest {
    #[elicit(min_length = 2)]
    name: String,
    #[elicit(minimum = 1, maximum = 8)]
    party: u8,
}

#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Any allergies?", key = "allergies")]
struct Allergies {
    nuts: bool,
}

#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Which room?", key = "room")]
struct Room {
    number: u16,
}

/// A server whose every tool asks, and runs as a task for a client that can poll one.
#[derive(Clone)]
struct Desk {
    tool_router: ToolRouter<Desk>,
}

#[tool_router]
impl Desk {
    fn new() -> Self {
        Desk {
            tool_router: Self::tool_router(),
        }
    }

    /// What serves it: every tool may run as a task, two only once they have asked.
    fn elicitation() -> Elicitation {
        let tasks = Tasks::new()
            .optional("book")
            .optional("allergies")
            .optional("pair")
            .optional("hurried")
            .optional("model")
            .optional("own_rounds")
            .required_after_asks("then_task")
            .optional_after_asks("then_task_optional");
        Elicitation::new(seal()).with_tasks(tasks)
    }

    #[tool(description = "Asks who the table is for")]
    async fn book(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let guest = match ask.form::<Guest>().await {
            Ok(outcome) => outcome,
            Err(error) => return error.into_call_result(),
        };
        Ok(text(format!("{guest:?}")))
    }

    #[tool(description = "Asks about allergies, a box some hosts leave out when unticked")]
    async fn allergies(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        match ask.form::<Allergies>().await {
            Ok(outcome) => Ok(text(format!("{outcome:?}"))),
            Err(error) => error.into_call_result(),
        }
    }

    #[tool(description = "Asks two forms at once")]
    async fn pair(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let (guest, room) = match ask.forms::<Guest, Room>().await {
            Ok(both) => both,
            Err(error) => return error.into_call_result(),
        };
        Ok(text(format!("{guest:?} in {room:?}")))
    }

    #[tool(description = "Asks, but waits a moment only")]
    async fn hurried(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let waited = ask
            .form::<Guest>()
            .with_timeout(Duration::from_millis(300))
            .await;
        match waited {
            Ok(guest) => Ok(text(format!("{guest:?}"))),
            Err(error) => {
                // Other work after giving up: the task goes on without the ask.
                tokio::time::sleep(Duration::from_secs(1)).await;
                error.into_call_result()
            }
        }
    }

    #[tool(description = "Asks who in a round, then continues as a task that asks which room")]
    async fn then_task(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let guest = ask.form::<Guest>().await?;
        ask.continue_as_task().await?;
        let room = ask.form::<Room>().await?;
        Ok(text(format!("{guest:?} in {room:?}")))
    }

    #[tool(description = "The same, a plain call for a client without the extension")]
    async fn then_task_optional(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        self.then_task(ask).await
    }

    #[tool(description = "Answers with an InputRequiredResult of its own")]
    async fn own_rounds(&self) -> Result<sdk::CallToolResponse, ErrorData> {
        let request: InputRequest = serde_json::from_value(json!({
            "method": "roots/list", "params": {}
        }))
        .expect("a roots request");
        let requests: sdk::InputRequests = [("mine".to_owned(), request)].into_iter().collect();
        Ok(sdk::InputRequiredResult::from_input_requests(requests).into())
    }

    #[tool(description = "Continues as a task, but is not declared so")]
    async fn stray(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        match ask.continue_as_task().await {
            Ok(()) => Ok(text("went on".to_owned())),
            Err(error) => error.into_call_result(),
        }
    }

    #[tool(description = "Asks the client's model, then its roots")]
    async fn model(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let question = sdk::CreateMessageRequestParams::new(
            vec![sdk::SamplingMessage::user_text("Capital of France?")],
            50,
        );
        let sampled = match ask.sample("capital", question).await {
            Ok(sampled) => sampled,
            Err(error) => return error.into_call_result(),
        };
        let roots = match ask.roots("roots").await {
            Ok(roots) => roots,
            Err(error) => return error.into_call_result(),
        };
        let said = sampled.message.content.first().and_then(|c| c.as_text());
        Ok(text(format!(
            "{} with {} root(s)",
            said.map(|t| t.text.as_str()).unwrap_or("?"),
            roots.roots.len()
        )))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Desk {
    fn get_info(&self) -> sdk::ServerConfig {
        sdk::ServerConfig::new(sdk::ServerCapabilities::builder().enable_tools().build())
    }
}

fn text(text: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

const BOTH: [ProtocolVersion; 2] = [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25];

/// A client on `protocol` with the tasks extension, forms, sampling and roots.
async fn desk(protocol: ProtocolVersion) -> RunningService<RoleClient, sdk::ClientConfig> {
    let form = elicit_mcp::wire::ElicitationCapability::form();
    let mut info = client_info("task-asks", protocol.clone(), Some(&form), true);
    info.capabilities.extensions = tasks_extension().extensions;
    let (_, client) = serve(&Desk::elicitation(), Desk::new(), info, protocol).await;
    client
}

/// The task's input requests once exactly `count` are pending (at most 5 s).
pub(crate) async fn pending<C: ClientHandler>(
    client: &RunningService<RoleClient, C>,
    task: &str,
    count: usize,
) -> sdk::InputRequests {
    let mut last = None;
    for _ in 0..250 {
        let got = client
            .peer()
            .get_task(sdk::GetTaskParams::new(task.to_owned()))
            .await
            .expect("tasks/get answers");
        if let TaskPayload::InputRequired { input_requests } = &got.task.payload
            && input_requests.len() == count
        {
            assert_eq!(got.task.status(), TaskStatus::InputRequired);
            return input_requests.clone();
        }
        last = Some(got.task);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("task {task} never had {count} input request(s) pending; last {last:?}")
}

async fn answer<C: ClientHandler>(
    client: &RunningService<RoleClient, C>,
    task: &str,
    answers: Value,
) {
    let Value::Object(answers) = answers else {
        panic!("answers are an object")
    };
    client
        .peer()
        .update_task(sdk::UpdateTaskParams::new(
            task,
            answers.into_iter().collect(),
        ))
        .await
        .expect("tasks/update answers");
}

async fn created<C: ClientHandler>(client: &RunningService<RoleClient, C>, tool: &str) -> String {
    let response = client.call_tool_once(call(tool, json!({}))).await;
    task_id(response.expect("the call creates a task"))
}

fn form_message(request: &InputRequest) -> String {
    let InputRequest::Elicitation(request) = request else {
        panic!("expected an elicitation, got {request:?}")
    };
    let value = serde_json::to_value(&request.params).unwrap();
    value["message"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_form_inside_a_task_is_an_input_request_answered_by_tasks_update() {
    for protocol in BOTH {
        let client = desk(protocol.clone()).await;
        let id = created(&client, "book").await;
        let asked = pending(&client, &id, 1).await;
        assert_eq!(form_message(&asked["guest"]), "Who is the table for?");
        let request = serde_json::to_value(&asked["guest"]).unwrap();
        assert_eq!(request["method"], json!("elicitation/create"), "{request}");
        assert_eq!(
            request["params"]["requestedSchema"]["required"],
            json!(["name", "party"])
        );
        answer(
            &client,
            &id,
            json!({"guest": {"action": "accept", "content": {"name": "Ada", "party": 2}}}),
        )
        .await;
        let task = settled(&client, &id).await;
        assert_eq!(
            result_text(&task),
            r#"Accepted(Guest { name: "Ada", party: 2 })"#,
            "on {protocol:?}"
        );
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_wrong_answer_is_asked_again_under_a_fresh_key_with_the_right_fields_kept() {
    for protocol in BOTH {
        let client = desk(protocol.clone()).await;
        let id = created(&client, "book").await;
        pending(&client, &id, 1).await;
        answer(
            &client,
            &id,
            json!({"guest": {"action": "accept", "content": {"name": "A", "party": 3}}}),
        )
        .await;
        // rmcp refuses a key twice in one task: the re-ask goes under `guest-2`, alone.
        let again = pending(&client, &id, 1).await;
        let request = serde_json::to_value(&again["guest-2"]).unwrap();
        assert!(
            form_message(&again["guest-2"])
                .ends_with("\n\nPlease correct:\nName must be at least 2 characters long, got 1"),
            "{request}"
        );
        // The right answer is shown as a default, and kept when the client leaves it out.
        let party = &request["params"]["requestedSchema"]["properties"]["party"];
        assert_eq!(party["default"], json!(3), "{request}");
        answer(
            &client,
            &id,
            json!({"guest-2": {"action": "accept", "content": {"name": "Ada"}}}),
        )
        .await;
        let task = settled(&client, &id).await;
        assert_eq!(
            result_text(&task),
            r#"Accepted(Guest { name: "Ada", party: 3 })"#,
            "on {protocol:?}"
        );
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_box_left_out_inside_a_task_is_asked_again_in_words_then_read_as_unticked() {
    for protocol in BOTH {
        let client = desk(protocol.clone()).await;
        let id = created(&client, "allergies").await;
        pending(&client, &id, 1).await;
        answer(
            &client,
            &id,
            json!({"allergies": {"action": "accept", "content": {}}}),
        )
        .await;
        let again = pending(&client, &id, 1).await;
        let request = serde_json::to_value(&again["allergies-2"]).unwrap();
        assert!(
            form_message(&again["allergies-2"]).ends_with(
                "\n\nPlease correct:\nNuts was left out: tick it for yes, or leave it unticked \
                 for no"
            ),
            "{request}"
        );
        // Shown unticked: left out again, it is a "no".
        let nuts = &request["params"]["requestedSchema"]["properties"]["nuts"];
        assert_eq!(nuts["default"], json!(false), "{request}");
        answer(
            &client,
            &id,
            json!({"allergies-2": {"action": "accept", "content": {}}}),
        )
        .await;
        let task = settled(&client, &id).await;
        assert_eq!(
            result_text(&task),
            "Accepted(Allergies { nuts: false })",
            "on {protocol:?}"
        );
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn two_forms_are_pending_together_and_a_partial_update_keeps_the_other() {
    for protocol in BOTH {
        let client = desk(protocol.clone()).await;
        let id = created(&client, "pair").await;
        let asked = pending(&client, &id, 2).await;
        assert_eq!(asked.keys().collect::<Vec<_>>(), ["guest", "room"]);
        answer(
            &client,
            &id,
            json!({"room": {"action": "accept", "content": {"number": 12}}}),
        )
        .await;
        let left = pending(&client, &id, 1).await;
        assert!(left.contains_key("guest"), "{left:?}");
        // A wrong answer to the other is asked again: the task waits for `guest-2` only.
        answer(
            &client,
            &id,
            json!({"guest": {"action": "accept", "content": {}}}),
        )
        .await;
        let left = pending(&client, &id, 1).await;
        assert!(left.contains_key("guest-2"), "{left:?}");
        answer(
            &client,
            &id,
            json!({"guest-2": {"action": "accept", "content": {"name": "Bo", "party": 1}}}),
        )
        .await;
        assert_eq!(
            result_text(&settled(&client, &id).await),
            r#"Accepted(Guest { name: "Bo", party: 1 }) in Accepted(Room { number: 12 })"#,
            "on {protocol:?}"
        );
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn an_ask_that_stops_waiting_is_withdrawn_from_the_task() {
    let client = desk(ProtocolVersion::V_2026_07_28).await;
    let id = created(&client, "hurried").await;
    pending(&client, &id, 1).await;
    // rmcp alone would list `guest` until the task ends (see `task_runtime`).
    let task = settled(&client, &id).await;
    let TaskPayload::Completed { result } = &task.payload else {
        panic!("expected a completed task, got {task:?}")
    };
    assert_eq!(result["isError"], json!(true));
    assert_eq!(
        result["content"][0]["text"],
        json!("the user did not answer within 300 ms; the request was cancelled")
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_task_withdraws_an_ask_it_stopped_waiting_for_while_it_goes_on() {
    // The drop guard, seen while the task still runs (the method works a second more after
    // its ask timed out): `working`, nothing pending; an answer too late is ignored.
    let client = desk(ProtocolVersion::V_2026_07_28).await;
    let id = created(&client, "hurried").await;
    pending(&client, &id, 1).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    let got = client
        .peer()
        .get_task(sdk::GetTaskParams::new(id.clone()))
        .await
        .unwrap();
    assert_eq!(got.task.status(), TaskStatus::Working, "{got:?}");
    assert!(matches!(got.task.payload, TaskPayload::Working), "{got:?}");
    answer(
        &client,
        &id,
        json!({"guest": {"action": "accept", "content": {"name": "Late", "party": 1}}}),
    )
    .await;
    assert_eq!(settled(&client, &id).await.status(), TaskStatus::Completed);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn sampling_and_roots_inside_a_task_come_back_typed() {
    for protocol in BOTH {
        let client = desk(protocol.clone()).await;
        let id = created(&client, "model").await;
        let asked = pending(&client, &id, 1).await;
        assert!(matches!(asked["capital"], InputRequest::CreateMessage(_)));
        answer(
            &client,
            &id,
            json!({"capital": {"role": "assistant", "content": {"type": "text", "text": "Paris"},
                               "model": "test-model"}}),
        )
        .await;
        let asked = pending(&client, &id, 1).await;
        assert!(matches!(asked["roots"], InputRequest::ListRoots(_)));
        answer(
            &client,
            &id,
            json!({"roots": {"roots": [{"uri": "file:///work", "name": "work"}]}}),
        )
        .await;
        assert_eq!(
            result_text(&settled(&client, &id).await),
            "Paris with 1 root(s)",
            "on {protocol:?}"
        );
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn an_answer_that_is_not_an_elicitation_result_is_an_error_naming_the_key() {
    let client = desk(ProtocolVersion::V_2026_07_28).await;
    let id = created(&client, "book").await;
    pending(&client, &id, 1).await;
    answer(&client, &id, json!({"guest": {"ignored": true}})).await;
    let task = settled(&client, &id).await;
    let TaskPayload::Completed { result } = &task.payload else {
        panic!("expected a completed task, got {task:?}")
    };
    assert_eq!(result["isError"], json!(true));
    let said = result["content"][0]["text"].as_str().unwrap();
    assert!(
        said.starts_with("invalid elicitation result: the answer under `guest` is not a `elicitation/create` result"),
        "{said}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn cancelling_a_task_that_waits_for_an_answer_settles_it_cancelled() {
    let client = desk(ProtocolVersion::V_2026_07_28).await;
    let id = created(&client, "book").await;
    pending(&client, &id, 1).await;
    client
        .peer()
        .cancel_task(sdk::CancelTaskParams::new(id.clone()))
        .await
        .unwrap();
    let task = settled(&client, &id).await;
    assert_eq!(task.status(), TaskStatus::Cancelled, "{task:?}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_method_that_builds_its_own_input_required_result_fails_its_task_and_says_why() {
    let client = desk(ProtocolVersion::V_2026_07_28).await;
    let id = created(&client, "own_rounds").await;
    let task = settled(&client, &id).await;
    let said = crate::tasks::error_message(&task);
    assert!(
        said.starts_with(
            "the tool `own_rounds` answered with an InputRequiredResult of its own inside a task"
        ),
        "{said}"
    );
    client.cancel().await.unwrap();
}

// --- Composition: asks in rounds, then the rest as a task ---------------------------------------

/// A 2026-07-28 client (duplex) with forms and, when `declared`, the tasks extension.
async fn desk_2026(declared: bool) -> RunningService<RoleClient, sdk::ClientConfig> {
    let form = elicit_mcp::wire::ElicitationCapability::form();
    let protocol = ProtocolVersion::V_2026_07_28;
    let mut info = client_info("task-asks", protocol.clone(), Some(&form), false);
    if declared {
        info.capabilities.extensions = tasks_extension().extensions;
    }
    let (_, client) = serve(&Desk::elicitation(), Desk::new(), info, protocol).await;
    client
}

fn responses(answers: Value) -> sdk::InputResponses {
    let Value::Object(answers) = answers else {
        panic!("answers are an object")
    };
    answers.into_iter().collect()
}

#[tokio::test]
async fn a_method_asks_in_rounds_then_continues_as_a_task_carrying_the_answers() {
    let client = desk_2026(true).await;
    let first = client
        .call_tool_once(call("then_task", json!({})))
        .await
        .unwrap();
    let sdk::CallToolResponse::InputRequired(round) = first else {
        panic!("expected a round, got {first:?}")
    };
    let asked = round.input_requests.expect("the round asks");
    assert_eq!(asked.keys().collect::<Vec<_>>(), ["guest"]);
    let retry = call("then_task", json!({}))
        .with_input_responses(responses(
            json!({"guest": {"action": "accept", "content": {"name": "Ada", "party": 2}}}),
        ))
        .with_request_state(round.request_state.expect("a sealed state"));
    let created = client.call_tool_once(retry).await.unwrap();
    let id = task_id(created);
    // Inside the task the earlier ask returns its carried answer; the next is the task's.
    let asked = pending(&client, &id, 1).await;
    assert!(asked.contains_key("room"), "{asked:?}");
    answer(
        &client,
        &id,
        json!({"room": {"action": "accept", "content": {"number": 7}}}),
    )
    .await;
    assert_eq!(
        result_text(&settled(&client, &id).await),
        r#"Accepted(Guest { name: "Ada", party: 2 }) in Accepted(Room { number: 7 })"#
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn without_the_extension_a_composed_tool_is_refused_or_stays_a_plain_call() {
    let client = desk_2026(false).await;
    let refused = client.call_tool_once(call("then_task", json!({}))).await;
    let error = elicit_test_support::rmcp::error_of(refused);
    assert_eq!(
        error.code,
        sdk::ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
    );

    // Optional: round after round, `continue_as_task` returning at once.
    let first = client
        .call_tool_once(call("then_task_optional", json!({})))
        .await
        .unwrap();
    let round = elicit_test_support::rmcp::input_required(first);
    let retry = call("then_task_optional", json!({}))
        .with_input_responses(responses(
            json!({"guest": {"action": "accept", "content": {"name": "Bo", "party": 1}}}),
        ))
        .with_request_state(round.request_state.unwrap());
    let round =
        elicit_test_support::rmcp::input_required(client.call_tool_once(retry).await.unwrap());
    assert!(round.input_requests.unwrap().contains_key("room"));
    let retry = call("then_task_optional", json!({}))
        .with_input_responses(responses(
            json!({"room": {"action": "accept", "content": {"number": 3}}}),
        ))
        .with_request_state(round.request_state.unwrap());
    let done = client.call_tool_once(retry).await.unwrap();
    assert_eq!(
        elicit_test_support::rmcp::completed_text(done),
        r#"Accepted(Guest { name: "Bo", party: 1 }) in Accepted(Room { number: 3 })"#
    );

    let stray = client
        .call_tool_once(call("stray", json!({})))
        .await
        .unwrap();
    let sdk::CallToolResponse::Complete(result) = stray else {
        panic!("expected a result, got {stray:?}")
    };
    assert_eq!(result.is_error, Some(true));
    let said = &result.content[0].as_text().unwrap().text;
    assert!(
        said.contains("is not declared with `Tasks::optional_after_asks`"),
        "{said}"
    );
    client.cancel().await.unwrap();
}

// --- Over streamable HTTP: the conformance server's fixtures that ask ---------------------------

#[tokio::test]
async fn over_streamable_http_confirm_delete_and_multi_input_ask_inside_their_tasks() {
    let (url, stop) = conformance_over_http().await;
    for lifecycle in [
        negotiating(),
        rmcp::service::ClientLifecycleMode::Initialize,
    ] {
        let client = http_client(&url, true, lifecycle).await;
        let response = client
            .call_tool_once(call("confirm_delete", json!({"filename": "rt.txt"})))
            .await;
        let id = task_id(response.unwrap());
        let asked = pending(&client, &id, 1).await;
        assert_eq!(form_message(&asked["confirm"]), "Delete rt.txt?");
        answer(
            &client,
            &id,
            json!({"confirm": {"action": "accept", "content": {"confirm": true}}}),
        )
        .await;
        assert_eq!(result_text(&settled(&client, &id).await), "deleted rt.txt");

        // As the suite answers it: both members to each key, one key at a time.
        let id = created(&client, "multi_input").await;
        let asked = pending(&client, &id, 2).await;
        let keys: Vec<_> = asked.keys().cloned().collect();
        let both =
            |name: &str| json!({"action": "accept", "content": {"name": name, "confirm": true}});
        answer(&client, &id, json!({ keys[0].clone(): both("partial-1") })).await;
        let left = pending(&client, &id, 1).await;
        assert!(left.contains_key(&keys[1]), "{left:?}");
        answer(&client, &id, json!({ keys[1].clone(): both("partial-2") })).await;
        assert_eq!(
            result_text(&settled(&client, &id).await),
            r#"name accepted: {"name":"partial-1"}; proceed accepted: {"confirm":true}"#
        );
        client.cancel().await.unwrap();
    }
    let _ = stop.send(());
}

#[tokio::test]
async fn over_streamable_http_an_answer_sent_to_another_replica_is_refused_and_the_ask_waits() {
    // Two replicas, each with its tasks in its own memory: a proxy routes `tasks/*` by
    // `Mcp-Name` to the replica that created the task.
    let (first, stop_first) = conformance_over_http().await;
    let (second, stop_second) = conformance_over_http().await;
    let on_first = http_client(&first, true, negotiating()).await;
    let on_second = http_client(&second, true, negotiating()).await;
    let response = on_first
        .call_tool_once(call("confirm_delete", json!({"filename": "a.txt"})))
        .await;
    let id = task_id(response.unwrap());
    pending(&on_first, &id, 1).await;
    let yes = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    let Value::Object(answers) = yes.clone() else {
        unreachable!()
    };
    let elsewhere = on_second
        .peer()
        .update_task(sdk::UpdateTaskParams::new(
            id.clone(),
            answers.into_iter().collect(),
        ))
        .await;
    let error = elicit_test_support::rmcp::error_of(elsewhere);
    assert_eq!(error.code, sdk::ErrorCode::INVALID_PARAMS);
    assert_eq!(error.message, format!("unknown task: {id}"));
    // Still waiting on its own replica, where the answer completes it.
    let asked = pending(&on_first, &id, 1).await;
    assert!(asked.contains_key("confirm"));
    answer(&on_first, &id, yes).await;
    assert_eq!(result_text(&settled(&on_first, &id).await), "deleted a.txt");
    on_first.cancel().await.unwrap();
    on_second.cancel().await.unwrap();
    let _ = (stop_first.send(()), stop_second.send(()));
}

#[tokio::test]
async fn over_streamable_http_test_tool_with_task_asks_in_a_round_then_answers_with_a_task() {
    let (url, stop) = conformance_over_http().await;
    let client = http_client(&url, true, negotiating()).await;
    let first = client
        .call_tool_once(call("test_tool_with_task", json!({})))
        .await
        .unwrap();
    let round = elicit_test_support::rmcp::input_required(first);
    let asked = round.input_requests.expect("the round asks");
    assert_eq!(asked.keys().collect::<Vec<_>>(), ["user_name"]);
    let retry = call("test_tool_with_task", json!({}))
        .with_input_responses(responses(
            json!({"user_name": {"action": "accept", "content": {"name": "Alice"}}}),
        ))
        .with_request_state(round.request_state.expect("a sealed state"));
    let id = task_id(client.call_tool_once(retry).await.unwrap());
    assert_eq!(
        result_text(&settled(&client, &id).await),
        r#"done for accepted: {"name":"Alice"}"#
    );
    client.cancel().await.unwrap();

    // Without the extension: -32021 before any round.
    let client = http_client(&url, false, negotiating()).await;
    let refused = client
        .call_tool_once(call("test_tool_with_task", json!({})))
        .await;
    let error = elicit_test_support::rmcp::error_of(refused);
    assert_eq!(
        error.code,
        sdk::ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
    );
    client.cancel().await.unwrap();
    let _ = stop.send(());
}

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`).
#[test]
fn every_form_here_agrees_with_jsonschema() {
    elicit_test_support::agree_with_jsonschema!(Guest, Allergies, Room);
}
