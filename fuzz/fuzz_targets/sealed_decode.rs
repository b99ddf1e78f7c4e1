//! The decoders behind a seal, reached with a valid key: an attacker's bytes get there only
//! after the tag, so each input is sealed first, then opened and decoded as the server does.
//! A `requestState` that opens is replayed by a handler (its asks checked against the state,
//! its answers read by a derived form) and sealed again, to open as the same state; a held
//! answer of the secure page reads back as written; a credential opens to its bytes.
//!
//! Input: one byte choosing what is sealed (by its value modulo 3: a state, a held answer, a
//! credential) and, for a state, the form its handler asks (`elicit_fuzz::on_form`, the byte
//! divided by 3); then the plaintext.

#![no_main]

use std::sync::LazyLock;

use elicit_fuzz::{OnForm, ToContent, on_form, selector};
use elicit_mcp::__fuzz::{AtRest, OpenedState, RequestStates};
use elicit_mcp::Elicit;
use libfuzzer_sys::fuzz_target;

static STATES: LazyLock<RequestStates> = LazyLock::new(RequestStates::new);
static AT_REST: LazyLock<AtRest> = LazyLock::new(AtRest::new);

/// The nonce of every seal here: the targets look at decoding, not at the cipher.
const NONCE: [u8; 24] = [7; 24];

fuzz_target!(|data: &[u8]| {
    let (choice, plaintext) = selector(data);
    match choice % 3 {
        0 => {
            let token = STATES.seal_bytes(plaintext, NONCE);
            let Some(state) = STATES.open(&token) else {
                return;
            };
            let json = state.to_json();
            let again = STATES
                .open(&state.seal(&STATES))
                .expect("a state sealed again opens");
            assert_eq!(
                again.to_json(),
                json,
                "a state sealed again opens as another"
            );
            on_form(choice / 3, Replay(&state));
        }
        1 => {
            let token = AT_REST.seal_answer(plaintext, NONCE);
            let opened = AT_REST.open_answer(&token).expect("a sealed answer opens");
            if let Ok(answer) = opened {
                let written = serde_json::to_vec(&answer).unwrap();
                let again = AT_REST.seal_answer(&written, NONCE);
                let read = AT_REST.open_answer(&again).expect("a sealed answer opens");
                assert_eq!(
                    read,
                    Ok(answer),
                    "a held answer written back reads as another"
                );
            }
        }
        _ => {
            let token = AT_REST.seal_credential(plaintext, NONCE);
            let opened = AT_REST.open_credential(&token);
            assert_eq!(
                opened.as_deref(),
                Some(plaintext),
                "a credential opens as another"
            );
        }
    }
});

struct Replay<'a>(&'a OpenedState);

impl OnForm for Replay<'_> {
    type Out = ();

    fn on<T: Elicit>(self, _: Option<ToContent<T>>) {
        let told = self.0.replay::<T>();
        assert!(!told.is_empty());
    }
}
