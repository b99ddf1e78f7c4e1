//! The keys a replica must share with the others, from the environment: `ELICIT_STATE_KEYS`
//! seals 2026-07-28 `requestState`, `ELICIT_AT_REST_KEYS` encrypts what Redis holds for users
//! (credentials, the secure page's answers). Both are `ID:HEX[,ID:HEX…]`, the first one
//! sealing, every one opening. Each says on stderr which key ids it uses, never a key.

use std::error::Error;

use elicit_mcp::rmcp::{ParsedKeyring, RequestStateSeal};
use elicit_mcp::server::AtRestKeys;

/// The variable that holds the keys sealing `requestState`.
pub const STATE_KEYS: &str = "ELICIT_STATE_KEYS";

/// The variable that holds the keys encrypting what Redis holds for users.
pub const AT_REST_KEYS: &str = "ELICIT_AT_REST_KEYS";

/// The seal of `requestState`: with the keys of `ELICIT_STATE_KEYS` when set (the same on every
/// replica, so any of them opens a state another sealed), else with a key of this process's own,
/// which a retry that reaches another replica cannot open.
pub fn state_seal() -> Result<RequestStateSeal, Box<dyn Error>> {
    let seal = match keyring(STATE_KEYS)? {
        Some(keyring) => RequestStateSeal::from_keyring(keyring.signing_id(), keyring.keys())
            .map_err(|e| format!("{STATE_KEYS}: {e}"))?,
        None => RequestStateSeal::generated()?,
    };
    let ids: Vec<&str> = seal.key_ids().collect();
    say(
        "requestState is",
        STATE_KEYS,
        &ids,
        std::env::var_os(STATE_KEYS).is_some(),
    );
    Ok(seal)
}

/// The keys encrypting what Redis holds for users: those of `ELICIT_AT_REST_KEYS` when set (the
/// same on every replica), else a random key of this process's own, so what it holds opens on
/// this replica only and not after a restart.
pub fn at_rest_keys() -> Result<AtRestKeys, Box<dyn Error>> {
    let keys = match keyring(AT_REST_KEYS)? {
        Some(keyring) => AtRestKeys::from_keyring(keyring.signing_id(), keyring.keys())
            .map_err(|e| format!("{AT_REST_KEYS}: {e}"))?,
        None => AtRestKeys::generated()?,
    };
    let ids: Vec<&str> = keys.key_ids().collect();
    say(
        "what Redis holds for users is",
        AT_REST_KEYS,
        &ids,
        std::env::var_os(AT_REST_KEYS).is_some(),
    );
    Ok(keys)
}

/// The keyring in variable `name`, if it is set.
fn keyring(name: &str) -> Result<Option<ParsedKeyring>, Box<dyn Error>> {
    match std::env::var(name) {
        Ok(text) => RequestStateSeal::parse_keyring(&text)
            .map(Some)
            .map_err(|e| format!("{name}: {e}").into()),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(format!("{name} is not text").into()),
    }
}

/// Says which keys seal `what`: on stderr, as a stdio server's stdout is the protocol's.
fn say(what: &str, variable: &str, ids: &[&str], from_environment: bool) {
    if from_environment {
        eprintln!(
            "{what} sealed with the keys of {variable}: {}",
            ids.join(", ")
        );
    } else {
        eprintln!(
            "{what} sealed with a key of this process's own, `{}` ({variable} is not set): \
             another replica cannot open what this one sealed",
            ids.join(", ")
        );
    }
}
