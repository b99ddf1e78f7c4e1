//! The entry points of the fuzz targets (`fuzz/` at the repository's root): thin calls into the
//! crate's readers of untrusted bytes that are not public, so that they are fuzzed as they run
//! without being made public. Compiled only with `--cfg fuzzing`, which `cargo fuzz` sets; not
//! part of the crate's API, and no promise is made about it.
//!
//! What is public already (the schema's parser, `validate_request`, `accept_form`, the derived
//! forms' `from_content`, `UrlPolicy`, `UrlReview`) the targets call directly.

#[cfg(feature = "rmcp")]
pub use request_state::{OpenedState, RequestStates};

#[cfg(feature = "rmcp")]
pub use response::read_response;

#[cfg(feature = "http")]
pub use http_body::{BodyCheck, check_body};

#[cfg(feature = "page")]
pub use page::{PostedPage, posted_form, posted_pairs};

#[cfg(feature = "redis")]
pub use redis::{AtRest, pending_entry, routed_completion};

#[cfg(all(feature = "redis", feature = "page"))]
pub use redis::stored_form;

#[cfg(feature = "url-mode")]
pub use url::registrable_range;

/// The secret every keyring of the targets is made from: fixed, so that a run repeats.
#[cfg(any(feature = "rmcp", feature = "redis"))]
const SECRET: &[u8; 32] = b"the fuzz targets' own secret 32!";

/// An expiry far enough for every token a run seals (a century).
#[cfg(any(feature = "rmcp", feature = "redis"))]
const TTL: std::time::Duration = std::time::Duration::from_secs(100 * 365 * 24 * 60 * 60);

#[cfg(feature = "rmcp")]
mod request_state {
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};
    use std::time::SystemTime;

    use serde_json::Value;

    use super::{SECRET, TTL};
    use crate::Elicit;
    use crate::rmcp::RequestStateSeal;
    use crate::rmcp::ask::keys::{AskKind, Asker, Keys};
    use crate::rmcp::kind::form::Form;
    use crate::rmcp::kind::{Answer, Request};
    use crate::rmcp::revision::params::Call;
    use crate::rmcp::revision::v2026_07_28::Binding;
    use crate::rmcp::revision::v2026_07_28::sealed::SealedState;
    use crate::server::Keyring;

    /// The purpose `RequestStateSeal` gives its keyring; [`RequestStates::new`] checks that a
    /// token its keyring seals opens with the seal, so a change of purpose fails at once
    /// rather than leave the decoder unreached.
    const PURPOSE: &str = "requestState";

    /// The `requestState` of one call of the fuzz targets, sealed and opened as a retry opens
    /// it: the seal of a server, and the same key as a keyring that seals any bytes.
    pub struct RequestStates {
        seal: RequestStateSeal,
        keyring: Keyring,
        binding: Binding,
    }

    /// A state that opened: what a retry's handler runs over.
    pub struct OpenedState(SealedState);

    impl Default for RequestStates {
        fn default() -> Self {
            Self::new()
        }
    }

    impl RequestStates {
        /// The seal and its keyring, checked to be one.
        pub fn new() -> Self {
            let seal = RequestStateSeal::from_keyring("fuzz", [("fuzz", SECRET)])
                .expect("a 32-byte key")
                .with_ttl(TTL)
                .expect("a century is a time to live the seal takes");
            let keyring = Keyring::new(PURPOSE, ("fuzz", SECRET), []);
            let call = Call {
                method: "tools/call",
                name: "fuzz",
                arguments: None,
            };
            let states = RequestStates {
                seal,
                keyring,
                binding: Binding::of(&call, None),
            };
            let token = states.seal_bytes(br#"{"nonce":"n"}"#, [0; 24]);
            assert!(
                states.open(&token).is_some(),
                "the fuzz keyring does not seal as RequestStateSeal opens: has its purpose changed?"
            );
            states
        }

        /// `plaintext`, whatever it is, sealed as the state of the fuzz call under `nonce`.
        pub fn seal_bytes(&self, plaintext: &[u8], nonce: [u8; 24]) -> String {
            self.keyring
                .seal(plaintext, self.binding.as_bytes(), TTL, nonce)
                .expect("a plaintext of a fuzz input is small enough to seal")
        }

        /// What `token` holds, opened and decoded as a retry of the fuzz call opens it (no
        /// replay guard); `None` when it is refused.
        pub fn open(&self, token: &str) -> Option<OpenedState> {
            now(self.seal.open(token, &self.binding))
                .ok()
                .map(OpenedState)
        }

        /// Whether the keyring alone opens `token`: the authenticated decryption, before any
        /// decoding.
        pub fn opens(&self, token: &str) -> bool {
            self.keyring
                .open(token, self.binding.as_bytes(), SystemTime::now())
                .is_ok()
        }
    }

    impl OpenedState {
        /// The state as JSON, as it is sealed.
        pub fn to_json(&self) -> Value {
            serde_json::to_value(&self.0).expect("a state writes as JSON")
        }

        /// The state sealed again, as a round that ends seals it.
        pub fn seal(&self, states: &RequestStates) -> String {
            states
                .seal
                .seal(&self.0, &states.binding)
                .expect("a state that opened seals again")
        }

        /// What a handler of the form `T` meets in this state on a retry: the asks of a run
        /// (the form, a step, a URL, sampling, roots, the form again) checked against the
        /// state's record of the earlier runs, and each answer the state carries read by the
        /// form as the ask reads it. Gives what the handler would be told, errors included.
        pub fn replay<T: Elicit>(&self) -> Vec<String> {
            let mut told = Vec::new();
            let mut keys = Keys::replaying(self.0.asked.clone());
            let form = Asker::form::<T>();
            let asks = [
                Some(form.clone()),
                None,
                #[cfg(feature = "url-mode")]
                Some(Asker::Of(AskKind::Url)),
                Some(Asker::Of(AskKind::Sampling)),
                Some(Asker::Of(AskKind::Roots)),
                Some(form),
            ];
            for asker in asks {
                let key = match asker {
                    Some(asker) => {
                        let base = match &asker {
                            Asker::Form(_) => T::INPUT_KEY,
                            _ => "other",
                        };
                        keys.take(base, asker, 3)
                    }
                    None => keys.take_step(),
                };
                told.push(match key {
                    Ok(key) => key,
                    Err(error) => error.to_string(),
                });
            }
            told.extend(keys.into_asked().iter().map(ToString::to_string));
            let request: Request = Box::new(Form {
                schema: std::borrow::Cow::Borrowed(T::requested_schema()),
                message: String::new(),
                shown: serde_json::Map::new(),
                reads: T::requested_schema(),
            });
            for (key, answer) in &self.0.answers {
                let carried = match request.carried_answer(key, answer) {
                    Ok(carried) => carried,
                    Err(error) => {
                        told.push(error.to_string());
                        continue;
                    }
                };
                let kept = request.keep(carried, self.0.shown.get(key));
                if let Answer::Elicitation(result) = kept {
                    told.push(match T::from_result(&result) {
                        Ok(outcome) => format!("{:?}", outcome.accepted().is_some()),
                        Err(error) => error.to_string(),
                    });
                }
            }
            #[cfg(feature = "url-mode")]
            for flow in self.0.flows.values() {
                let expired = flow.expires_at <= SystemTime::now();
                told.push(format!("{} {:?} {expired}", flow.id, flow.status));
            }
            told
        }
    }

    /// The value of a future that is ready at once: opening without a replay guard awaits
    /// nothing.
    fn now<T>(future: impl Future<Output = T>) -> T {
        let mut future = pin!(future);
        match future
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
        {
            Poll::Ready(value) => value,
            Poll::Pending => panic!("opening a state without a replay guard waited"),
        }
    }
}

#[cfg(feature = "rmcp")]
mod response {
    use std::borrow::Cow;

    use serde_json::{Map, Value};

    use crate::Elicit;
    use crate::rmcp::kind::KindOfAsk;
    use crate::rmcp::kind::form::Form;

    /// A client's response to the form `T` (in `inputResponses` or `tasks/update`), read as a
    /// round reads it, borrowed and given away, each kept as the ask keeps it (`shown` filling
    /// what the answer left out): the two answers as JSON, `None` when it is no result.
    pub fn read_response<T: Elicit>(
        response: &Value,
        shown: &Map<String, Value>,
    ) -> (Option<Value>, Option<Value>) {
        let request = Form {
            schema: Cow::Borrowed(T::requested_schema()),
            message: String::new(),
            shown: shown.clone(),
            reads: T::requested_schema(),
        };
        let kept = |answer| {
            serde_json::to_value(request.keep(answer, None)).expect("an answer writes as JSON")
        };
        let borrowed = request.read(response).map(kept);
        let owned = request.read_owned(response.clone()).map(kept);
        (borrowed, owned)
    }
}

#[cfg(feature = "http")]
mod http_body {
    use crate::http::check::{check, refusal, well_formed_request};

    /// What the HTTP guard makes of a POST body.
    #[derive(Debug)]
    pub struct BodyCheck {
        /// The one read of the common case said rmcp can take it.
        pub well_formed: bool,
        /// What the full check (the one that names what is wrong) refuses it with: the
        /// JSON-RPC error's code, its message, and whether it carries the request's id.
        pub refused: Option<(i32, String, bool)>,
        /// What the guard answers: `check`, the fast read and then the full one.
        pub answered: Option<(i32, String, bool)>,
    }

    /// The guard's check of `body`, each of its two reads apart and together.
    pub fn check_body(body: &[u8]) -> BodyCheck {
        let error = |refusal: crate::http::check::Refusal| {
            let (id, error) = refusal.into_error();
            (error.code.0, error.message.into_owned(), id.is_some())
        };
        BodyCheck {
            well_formed: well_formed_request(body),
            refused: refusal(body).map(error),
            answered: check(body).map(error),
        }
    }
}

#[cfg(feature = "page")]
mod page {
    use serde_json::{Map, Value};

    use crate::Elicit;
    use crate::page::posted::pairs;
    use crate::page::read::{FieldMessage, read};
    use crate::page::render::FormPage;
    use crate::server::{FormCheck, PageForm};

    /// What the page makes of a posted form.
    #[derive(Debug)]
    pub struct PostedPage {
        /// The content accepted, or each field refused with what the page says beside it.
        pub content: Result<Map<String, Value>, Vec<FieldMessage>>,
        /// The page shown again when refused.
        pub page: Option<String>,
    }

    /// A posted body (`application/x-www-form-urlencoded`) read as the page reads an answer to
    /// form `T`, which this process knows; `None` when it does not decode (a name or value that
    /// is not UTF-8 once decoded), which the page answers with 400.
    pub fn posted_form<T: Elicit>(body: &[u8]) -> Option<PostedPage> {
        let pairs = pairs(body).ok()?;
        Some(posted_pairs::<T>(&pairs))
    }

    /// The decoded pairs of a posted form, read and, when refused, shown again.
    pub fn posted_pairs<T: Elicit>(pairs: &[(String, String)]) -> PostedPage {
        let form = PageForm::of::<T>(String::new());
        let (schema, secret_fields) = (&*form.schema, &form.secret_fields);
        let check = Some(FormCheck::of::<T>());
        let (content, shown) = read(schema, secret_fields, pairs, check);
        let page = content.as_ref().err().map(|refused| {
            FormPage {
                server: "fuzz server",
                message: "A form of the fuzz targets",
                schema,
                secret_fields,
                token: "csrf-token",
                shown: &shown,
                refused,
            }
            .render()
        });
        PostedPage { content, page }
    }
}

#[cfg(feature = "redis")]
mod redis {
    use std::time::SystemTime;

    use super::{SECRET, TTL};
    use crate::server::redis_store::decode_entry;
    use crate::server::redis_store::routing::decode_completion;
    use crate::server::{AtRestKeys, PendingEntry, bound_to};

    /// A pending elicitation's hash as `HMGET` reads it back (`entry`, `state`, `renewed`).
    pub fn pending_entry(
        id: &str,
        fields: Vec<Option<String>>,
    ) -> Result<Option<PendingEntry>, String> {
        decode_entry(id, fields).map_err(|e| e.to_string())
    }

    /// A completion routed over pub/sub, as the replica holding its connection reads it: the
    /// connection and the id, or why not.
    pub fn routed_completion(payload: &str) -> Result<(String, Option<String>, String), String> {
        let addressed = decode_completion(payload).map_err(|e| e.to_string())?;
        let (to, message) = addressed.into_parts();
        Ok((
            to.as_str().to_owned(),
            to.replica().map(str::to_owned),
            message.elicitation_id().as_str().to_owned(),
        ))
    }

    /// A form the secure page holds in Redis, read back: its message, schema and secret
    /// fields.
    #[cfg(feature = "page")]
    pub fn stored_form(
        stored: &str,
    ) -> Result<(String, crate::schema::RequestedSchema, Vec<String>), String> {
        let form =
            crate::server::secure_forms::redis::read_form(stored).map_err(|e| e.to_string())?;
        Ok((
            form.message,
            form.schema.into_owned(),
            form.secret_fields.iter().map(|f| f.to_string()).collect(),
        ))
    }

    /// What rests in Redis sealed under the [`AtRestKeys`]: credentials, and the page's
    /// answers held for a tool, each bound as the store binds it.
    pub struct AtRest {
        keys: AtRestKeys,
    }

    impl Default for AtRest {
        fn default() -> Self {
            Self::new()
        }
    }

    /// The user, name and elicitation every record of the targets belongs to.
    const USER: &str = "fuzz-user";
    const NAME: &str = "calendar";
    #[cfg(feature = "page")]
    const ELICITATION: &str = "fuzz-elicitation";

    impl AtRest {
        /// The keys of the targets.
        pub fn new() -> Self {
            AtRest {
                keys: AtRestKeys::from_keyring("fuzz", [("fuzz", SECRET)]).expect("a 32-byte key"),
            }
        }

        /// `plaintext` sealed as a credential is.
        pub fn seal_credential(&self, plaintext: &[u8], nonce: [u8; 24]) -> String {
            self.keys
                .credentials
                .seal(plaintext, &bound_to(&[USER, NAME]), TTL, nonce)
                .expect("a plaintext of a fuzz input is small enough to seal")
        }

        /// A stored credential opened as `RedisCredentials::find` opens it: its bytes.
        pub fn open_credential(&self, sealed: &str) -> Option<Vec<u8>> {
            self.keys
                .credentials
                .open(sealed, &bound_to(&[USER, NAME]), SystemTime::now())
                .ok()
                .map(|mut plaintext| std::mem::take(&mut *plaintext))
        }

        /// `plaintext` sealed as the page's held answer is.
        #[cfg(feature = "page")]
        pub fn seal_answer(&self, plaintext: &[u8], nonce: [u8; 24]) -> String {
            self.keys
                .answers
                .seal(plaintext, &answer_binding(), TTL, nonce)
                .expect("a plaintext of a fuzz input is small enough to seal")
        }

        /// A held answer opened and read as the tool's read takes it: `None` when it does not
        /// open, else the answer as JSON or why it does not read.
        #[cfg(feature = "page")]
        pub fn open_answer(&self, sealed: &str) -> Option<Result<serde_json::Value, String>> {
            let plaintext = self
                .keys
                .answers
                .open(sealed, &answer_binding(), SystemTime::now())
                .ok()?;
            Some(
                serde_json::from_slice::<crate::server::PageAnswer>(&plaintext)
                    .map(|answer| serde_json::to_value(&answer).expect("an answer writes as JSON"))
                    .map_err(|e| e.to_string()),
            )
        }
    }

    #[cfg(feature = "page")]
    fn answer_binding() -> Vec<u8> {
        let user = crate::server::UserId::from_verified_subject(USER).expect("a subject");
        bound_to(&[ELICITATION, user.as_str()])
    }
}

#[cfg(feature = "url-mode")]
mod url {
    use crate::client::UrlReview;

    /// Where the terminal and the ratatui widget highlight the registrable domain in the URL
    /// they show.
    pub fn registrable_range(review: &UrlReview) -> Option<std::ops::Range<usize>> {
        review.registrable_range()
    }
}
