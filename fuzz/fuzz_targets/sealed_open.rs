//! Opening sealed tokens: a `requestState` a client sends back, and what rests in Redis under
//! the at-rest keys (a credential, a held answer of the secure page). Any text is given to the
//! open; and a token the keyring sealed, changed by a list of edits, must be refused unless
//! the edits left it as it was.
//!
//! Input: typed (`arbitrary`): see `Input`.

#![no_main]

use std::sync::LazyLock;

use arbitrary::Arbitrary;
use elicit_mcp::__fuzz::{AtRest, RequestStates};
use libfuzzer_sys::fuzz_target;

static STATES: LazyLock<RequestStates> = LazyLock::new(RequestStates::new);
static AT_REST: LazyLock<AtRest> = LazyLock::new(AtRest::new);

#[derive(Arbitrary, Debug)]
enum Input {
    /// Any text, as a token.
    Token { ring: Ring, token: String },
    /// A token sealed over `plaintext`, then edited.
    Tampered {
        ring: Ring,
        nonce: [u8; 24],
        edits: Vec<Edit>,
        plaintext: Vec<u8>,
    },
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Ring {
    RequestState,
    Credential,
    Answer,
}

/// One change to a token's bytes; positions wrap around its length.
#[derive(Arbitrary, Debug)]
enum Edit {
    Set { at: u16, byte: u8 },
    Flip { at: u16, bit: u8 },
    Remove { at: u16 },
    Insert { at: u16, byte: u8 },
    Truncate { at: u16 },
    Swap { at: u16, with: u16 },
}

impl Ring {
    fn seal(self, plaintext: &[u8], nonce: [u8; 24]) -> String {
        match self {
            Ring::RequestState => STATES.seal_bytes(plaintext, nonce),
            Ring::Credential => AT_REST.seal_credential(plaintext, nonce),
            Ring::Answer => AT_REST.seal_answer(plaintext, nonce),
        }
    }

    /// Whether `token` opens: the authenticated decryption alone. Each open also runs as the
    /// store or the retry reads it, decoding what opened.
    fn opens(self, token: &str) -> bool {
        match self {
            Ring::RequestState => {
                let opened = STATES.open(token);
                let opens = STATES.opens(token);
                assert!(opens || opened.is_none(), "a state decoded without opening");
                opens
            }
            Ring::Credential => AT_REST.open_credential(token).is_some(),
            Ring::Answer => AT_REST.open_answer(token).is_some(),
        }
    }
}

fn edit(token: &mut Vec<u8>, edit: &Edit) {
    let len = token.len();
    // A position in the token (or, to insert and truncate, one past its end).
    let within = |at: u16, room: usize| usize::from(at) % room.max(1);
    match *edit {
        Edit::Set { at, byte } if len > 0 => token[within(at, len)] = byte,
        Edit::Flip { at, bit } if len > 0 => token[within(at, len)] ^= 1 << (bit % 8),
        Edit::Remove { at } if len > 0 => {
            token.remove(within(at, len));
        }
        Edit::Insert { at, byte } => token.insert(within(at, len + 1), byte),
        Edit::Truncate { at } => token.truncate(within(at, len + 1)),
        Edit::Swap { at, with } if len > 0 => token.swap(within(at, len), within(with, len)),
        _ => {}
    }
}

fuzz_target!(|input: Input| {
    match input {
        Input::Token { ring, token } => {
            ring.opens(&token);
        }
        Input::Tampered {
            ring,
            nonce,
            edits,
            plaintext,
        } => {
            let sealed = ring.seal(&plaintext, nonce);
            assert!(ring.opens(&sealed), "a token does not open as sealed");
            let mut tampered = sealed.clone().into_bytes();
            for change in &edits {
                edit(&mut tampered, change);
            }
            let Ok(tampered) = String::from_utf8(tampered) else {
                return;
            };
            if tampered != sealed {
                assert!(
                    !ring.opens(&tampered),
                    "a tampered token opened: {sealed} became {tampered}"
                );
            }
        }
    }
});
