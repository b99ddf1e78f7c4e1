//! What a 2026-07-28 round costs through `Ask`, next to an rmcp tool that answers the same form
//! by hand, in the same run, over the same in-memory duplex.
//!
//! - `round`: the retry that completes a one-form call: the request carries the answer and the
//!   `requestState` of the first round. Through `Ask` (a `#[tool]` router served through an `Elicitation`) the
//!   server opens and verifies the state, replays the method, parses the answer with the
//!   derived parser (every rule checked) and completes. By hand, a `#[tool]` with rmcp's own
//!   `InputResponses` and `RequestState` extractors opens the state with rmcp's
//!   `RequestStateCodec` (bound to the tool) and deserializes the answer with serde, unchecked.
//!   Fair because both sides make the same call from the same client over the same kind of
//!   duplex, each request cloned from a prepared one inside the timing, the response dropped
//!   inside it; only the server's work differs.
//! - `flow`: a whole call that asks N forms one after the other (N rounds and the final
//!   retry), rmcp's client answering each round and retrying, as it does; N = 1 to 5, the five
//!   flows alternating, to show the cost per round is constant.
//! - `large_call`: a 2026-07-28 call whose arguments are 1 MiB of small numbers, to a tool that
//!   does not ask: through rmcp's router alone, through an `Elicitation` when the method takes no `Ask`
//!   (no binding after its first call), and when it takes one (bound before it runs, since it
//!   may ask). What the `Elicitation` adds to a large call; the same request and client for all three.
//! - `call`: the same three on a small call (three numbers): what serving through an
//!   `Elicitation` costs every call of a tool that does not ask, where the call's own work is
//!   least. The same request cloned inside the timing and the same client for all three.
//!
//! The routines of a group alternate round by round within one run (see `common/mod.rs`); each
//! figure is the median of several runs with their spread, from this run's samples only.
//!
//! Run with `cargo bench --bench rounds` (`-- round`, `-- flow`, `-- large_call` or `-- call`
//! for one group).

#[path = "common/mod.rs"]
mod common;

use common::{Comparison, Plan, Routine, compare, timed};
use elicit_mcp::client::accept_form;
use elicit_mcp::rmcp::{Ask, Elicitation, RequestStateSeal};
use elicit_mcp::wire::ElicitRequestParams;
use elicit_mcp::{Elicit, ElicitOutcome};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model as sdk;
use rmcp::service::{RequestContext, RoleClient, RoleServer, RunningService, serve_directly};
use rmcp::{ClientHandler, ServerHandler, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

const KEY: &[u8] = b"a-bench-key-of-at-least-32-bytes!!";

#[derive(Elicit, Debug)]
#[elicit(message = "Book a table", key = "booking")]
#[allow(dead_code)]
struct Booking {
    #[elicit(min_length = 1, max_length = 40)]
    name: String,
    #[elicit(format = "date")]
    date: String,
    #[elicit(minimum = 1, maximum = 12, default = 2)]
    guests: u8,
}

/// The same form as serde reads it, unchecked.
#[derive(Deserialize)]
#[allow(dead_code)]
struct BookingByHand {
    name: String,
    date: String,
    guests: Option<u8>,
}

#[derive(Elicit, Debug)]
#[allow(dead_code)]
struct Step {
    #[elicit(min_length = 1)]
    answer: String,
}

// ---------------------------------------------------------------------------------------------
// Through `Ask`

#[derive(Clone)]
struct WithAsk {
    tool_router: ToolRouter<WithAsk>,
}

#[tool_router]
impl WithAsk {
    #[tool(description = "Books a table")]
    async fn book(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        let reply = match ask.form::<Booking>().await? {
            ElicitOutcome::Accepted(booking) => format!("booked for {}", booking.name),
            _ => "no booking".to_owned(),
        };
        Ok(sdk::CallToolResult::success(vec![sdk::ContentBlock::text(
            reply,
        )]))
    }

    #[tool(description = "Asks `steps` forms one after the other")]
    async fn steps(
        &self,
        Parameters(Steps { steps }): Parameters<Steps>,
        ask: Ask,
    ) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        for step in 0..steps {
            ask.form_with_message::<Step>(format!("step {step}"))
                .await?;
        }
        Ok(sdk::CallToolResult::success(vec![sdk::ContentBlock::text(
            "done",
        )]))
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Steps {
    steps: u32,
}

/// A large call's arguments: many small numbers, the shape that costs a JSON parser most.
#[derive(Deserialize, schemars::JsonSchema)]
struct Pad {
    pad: Vec<u8>,
}

fn counted(Pad { pad }: Pad) -> sdk::CallToolResult {
    sdk::CallToolResult::success(vec![sdk::ContentBlock::text(pad.len().to_string())])
}

#[tool_router(router = large_router)]
impl WithAsk {
    #[tool(description = "Counts the numbers it is given")]
    async fn count(&self, Parameters(pad): Parameters<Pad>) -> sdk::CallToolResult {
        counted(pad)
    }

    #[tool(description = "Counts the numbers it is given; could ask")]
    async fn count_asking(
        &self,
        Parameters(pad): Parameters<Pad>,
        _ask: Ask,
    ) -> sdk::CallToolResult {
        counted(pad)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for WithAsk {}

// ---------------------------------------------------------------------------------------------
// By hand, with rmcp alone

#[derive(Clone)]
struct ByHand {
    tool_router: ToolRouter<ByHand>,
    codec: sdk::RequestStateCodec,
}

#[tool_router]
impl ByHand {
    #[tool(description = "Books a table")]
    async fn book(
        &self,
        InputResponses(responses): InputResponses,
        RequestState(state): RequestState,
    ) -> Result<sdk::CallToolResponse, sdk::ErrorData> {
        let refused = || sdk::ErrorData::invalid_params("requestState is invalid", None);
        let answer = match (responses.as_ref().and_then(|r| r.get("booking")), state) {
            (Some(answer), Some(state)) => {
                let _: Value = self
                    .codec
                    .open_json_with(&state, b"book")
                    .map_err(|_| refused())?;
                answer.clone()
            }
            _ => {
                let schema: sdk::ElicitationSchema = serde_json::from_value(json!({
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "minLength": 1, "maxLength": 40},
                        "date": {"type": "string", "format": "date"},
                        "guests": {"type": "integer", "minimum": 1, "maximum": 12, "default": 2}
                    },
                    "required": ["name", "date"]
                }))
                .map_err(|e| sdk::ErrorData::internal_error(e.to_string(), None))?;
                let params = sdk::ElicitRequestParams::FormElicitationParams {
                    meta: None,
                    message: "Book a table".to_owned(),
                    requested_schema: schema,
                };
                let request = sdk::InputRequest::Elicitation(sdk::ElicitRequest::new(params));
                let requests = sdk::InputRequests::from([("booking".to_owned(), request)]);
                let options = sdk::SealOptions::new().associated_data(b"book");
                let sealed = self
                    .codec
                    .seal_json_with(&json!({}), &options)
                    .map_err(|e| sdk::ErrorData::internal_error(e.to_string(), None))?;
                return Ok(sdk::InputRequiredResult::new(Some(requests), Some(sealed)).into());
            }
        };
        let booking: BookingByHand = serde_json::from_value(answer["content"].clone())
            .map_err(|e| sdk::ErrorData::invalid_params(e.to_string(), None))?;
        Ok(
            sdk::CallToolResult::success(vec![sdk::ContentBlock::text(format!(
                "booked for {}",
                booking.name
            ))])
            .into(),
        )
    }
}

#[tool_router(router = large_router)]
impl ByHand {
    #[tool(description = "Counts the numbers it is given")]
    async fn count(&self, Parameters(pad): Parameters<Pad>) -> sdk::CallToolResult {
        counted(pad)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for ByHand {}

// ---------------------------------------------------------------------------------------------
// The client: fills every form from its defaults and a fixed answer

#[derive(Clone)]
struct Answering;

impl ClientHandler for Answering {
    fn get_info(&self) -> sdk::ClientConfig {
        let mut capabilities = sdk::ClientCapabilities::default();
        capabilities.elicitation = Some(sdk::ElicitationCapability::default());
        sdk::ClientConfig::new(capabilities, sdk::Implementation::new("bench-client", "0"))
            .with_protocol_version(sdk::ProtocolVersion::V_2026_07_28)
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, sdk::ErrorData> {
        let ElicitRequestParams::Form(form) = ElicitRequestParams::try_from(&request)? else {
            return Err(sdk::ErrorData::invalid_params("not a form", None));
        };
        let content = json!({"name": "Ada", "date": "2025-12-24", "answer": "yes"});
        let mut content = content.as_object().cloned().unwrap_or_default();
        content.retain(|name, _| form.requested_schema.property(name).is_some());
        let result = accept_form(&form.requested_schema, content)
            .map_err(|e| sdk::ErrorData::invalid_params(e.to_string(), None))?;
        Ok(sdk::ElicitResult::from(&result))
    }
}

/// `server` and the answering client on 2026-07-28 over an in-memory duplex (no handshake on
/// that revision: each end starts knowing the other).
/// A 2026-07-28 client of `server`, as `serve` serves it on one end of a duplex.
fn connect<S: ServerHandler>(
    serve: impl FnOnce(tokio::io::DuplexStream, sdk::ClientConfig) -> RunningService<RoleServer, S>,
) -> RunningService<RoleClient, Answering> {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let mut client_info = Answering.get_info();
    client_info.protocol_version = sdk::ProtocolVersion::V_2026_07_28;
    let running = serve(server_io, client_info);
    let mut server_info = running.service().get_info();
    server_info.protocol_version = sdk::ProtocolVersion::V_2026_07_28;
    tokio::spawn(async move {
        let _ = running.waiting().await;
    });
    serve_directly(Answering, client_io, Some(server_info.into()))
}

fn retry_of(first: sdk::CallToolResponse) -> sdk::CallToolRequestParams {
    let sdk::CallToolResponse::InputRequired(first) = first else {
        panic!("the first round asks for input: {first:?}");
    };
    let answer = json!({"action": "accept", "content": {"name": "Ada", "date": "2025-12-24"}});
    sdk::CallToolRequestParams::new("book")
        .with_input_responses(sdk::InputResponses::from([("booking".to_owned(), answer)]))
        .with_request_state(first.request_state.expect("a sealed state"))
}

fn completed(response: &sdk::CallToolResponse) -> bool {
    matches!(response, sdk::CallToolResponse::Complete(result) if result.is_error != Some(true))
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let _entered = runtime.enter();
    let seal = RequestStateSeal::from_keyring("bench", [("bench", KEY)]).expect("a good key");
    let elicitation = Elicitation::new(seal);
    let with_ask = connect(|io, client| {
        let server = WithAsk {
            tool_router: WithAsk::tool_router() + WithAsk::large_router(),
        };
        elicitation
            .serve_directly(server, io, Some(client))
            .expect("nothing to set up")
    });
    let by_hand = connect(|io, client| {
        let server = ByHand {
            tool_router: ByHand::tool_router() + ByHand::large_router(),
            codec: sdk::RequestStateCodec::try_new(KEY.to_vec()).expect("a good key"),
        };
        serve_directly(server, io, Some(client))
    });

    // The retry of each, from its own first round; both must complete, or the bench compares
    // failures.
    let first = |client: &RunningService<RoleClient, Answering>| {
        runtime
            .block_on(client.call_tool_once(sdk::CallToolRequestParams::new("book")))
            .expect("the first round is answered")
    };
    let ours = retry_of(first(&with_ask));
    let theirs = retry_of(first(&by_hand));
    let once = |client: &RunningService<RoleClient, Answering>,
                request: &sdk::CallToolRequestParams| {
        runtime
            .block_on(client.call_tool_once(request.clone()))
            .expect("the retry is answered")
    };
    assert!(completed(&once(&with_ask, &ours)), "Ask did not complete");
    assert!(
        completed(&once(&by_hand, &theirs)),
        "by hand did not complete"
    );
    compare(
        "round",
        Plan {
            runs: 7,
            rounds: 31,
            batch: 40,
        },
        &["one round through Ask", "one round by hand (rmcp + serde)"],
        vec![
            timed(|| once(&with_ask, &ours)),
            timed(|| once(&by_hand, &theirs)),
        ],
        &[Comparison {
            label: "Ask / by hand",
            ours: 0,
            theirs: 1,
        }],
    );

    // What a group not selected would set up is left out: a filtered run (and `--only`,
    // for callgrind) times and counts its own group alone.
    if common::selected("flow") {
        flows_group(&runtime, &with_ask);
    }
    // A large call: what the `Elicitation` adds where rmcp's parse is most of the time.
    let large = Plan {
        runs: 5,
        rounds: 5,
        batch: 1,
    };
    no_ask_group(
        "large_call",
        large,
        LARGE_CALL_NUMBERS,
        &runtime,
        &with_ask,
        &by_hand,
    );
    // A small call: where the call's own work is least and the `Elicitation`'s shows most.
    let small = Plan {
        runs: 7,
        rounds: 31,
        batch: 40,
    };
    no_ask_group(
        "call",
        small,
        SMALL_CALL_NUMBERS,
        &runtime,
        &with_ask,
        &by_hand,
    );
}

/// Whole calls asking 1 to `MAX_STEPS` forms, through `Ask`.
fn flows_group(
    runtime: &tokio::runtime::Runtime,
    with_ask: &RunningService<RoleClient, Answering>,
) {
    let flows: Vec<sdk::CallToolRequestParams> = (1..=MAX_STEPS)
        .map(|steps| {
            let request = sdk::CallToolRequestParams::new("steps").with_arguments(
                json!({"steps": steps})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            );
            let done = runtime
                .block_on(with_ask.call_tool(request.clone()))
                .expect("the flow completes");
            assert_ne!(done.is_error, Some(true), "{done:?}");
            request
        })
        .collect();
    let flow_names: Vec<String> = (1..=MAX_STEPS)
        .map(|n| {
            let forms = if n == 1 { "form" } else { "forms" };
            format!("a flow of {n} {forms} ({} requests)", n + 1)
        })
        .collect();
    compare(
        "flow",
        Plan {
            runs: 5,
            rounds: 11,
            batch: 10,
        },
        &flow_names.iter().map(String::as_str).collect::<Vec<_>>(),
        flows
            .iter()
            .map(|request| -> Routine<'_> {
                timed(move || runtime.block_on(with_ask.call_tool(request.clone())))
            })
            .collect(),
        &[],
    );
}

/// A call to a tool that does not ask, with `numbers` numbers as its arguments, through rmcp's
/// router and through an `Elicitation` (the method without an `Ask`; with one): group `name`.
fn no_ask_group(
    name: &str,
    plan: Plan,
    numbers: usize,
    runtime: &tokio::runtime::Runtime,
    with_ask: &RunningService<RoleClient, Answering>,
    by_hand: &RunningService<RoleClient, Answering>,
) {
    if !common::selected(name) {
        return;
    }
    let pad = json!({"pad": vec![0; numbers]});
    let request = |tool: &'static str| {
        sdk::CallToolRequestParams::new(tool)
            .with_arguments(pad.as_object().cloned().unwrap_or_default())
    };
    let counted = numbers.to_string();
    let count = |client: &RunningService<RoleClient, Answering>,
                 request: &sdk::CallToolRequestParams| {
        let done = runtime
            .block_on(client.call_tool(request.clone()))
            .expect("the call is answered");
        assert_eq!(
            done.content[0].as_text().map(|t| t.text.as_str()),
            Some(counted.as_str()),
            "{done:?}"
        );
    };
    let (plain, asking) = (request("count"), request("count_asking"));
    compare(
        name,
        plan,
        &[
            "rmcp's router alone",
            "Elicitation, the method takes no Ask",
            "Elicitation, the method takes an Ask",
        ],
        vec![
            timed(|| count(by_hand, &plain)),
            timed(|| count(with_ask, &plain)),
            timed(|| count(with_ask, &asking)),
        ],
        &[
            Comparison {
                label: "Elicitation without Ask / router alone",
                ours: 1,
                theirs: 0,
            },
            Comparison {
                label: "Elicitation with Ask / router alone",
                ours: 2,
                theirs: 0,
            },
        ],
    );
}

const MAX_STEPS: u32 = 5;
/// About 1 MiB of arguments (`0,` each).
const LARGE_CALL_NUMBERS: usize = 500_000;
/// A small call's arguments.
const SMALL_CALL_NUMBERS: usize = 3;
