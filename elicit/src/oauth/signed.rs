//! A JWT checked against its issuer's keys, the sequence access tokens and the page login's ID
//! tokens share: the algorithm among those allowed, the key its `kid` names, the signature,
//! `iss`, `aud`, and `exp` and `nbf` within the leeway. What each reads beyond is its own.

use std::collections::HashMap;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation};
use serde::de::DeserializeOwned;

use super::config::Settings;
use super::error::VerifierSetupError;
use super::keys::KeySet;

/// The issuer's keys, and how a token for `audience` is checked with them.
pub(crate) struct SignedTokens {
    keys: KeySet,
    /// One validation per allowed algorithm: jsonwebtoken checks the token's algorithm against
    /// the key's family for each algorithm of a validation, so they are not mixed.
    validations: HashMap<Algorithm, Validation>,
}

/// Why a token was not taken.
pub(crate) enum Unverified {
    /// It is no signed JWT, or names an algorithm jsonwebtoken does not know (`none` among
    /// them).
    NotSigned,
    /// Its algorithm is not among those the server allows.
    AlgorithmRefused,
    /// No key of the issuer's set has its `kid` (after a fetch again, when one was due).
    UnknownKey,
    /// jsonwebtoken's own check failed: the signature, a claim, a time.
    Claims(ErrorKind),
}

impl SignedTokens {
    /// The keys at `jwks_uri`, fetched now (a set that cannot be had fails the setup), for
    /// tokens whose `aud` is `audience`.
    pub async fn fetched(
        settings: &Settings,
        jwks_uri: String,
        audience: &str,
    ) -> Result<Self, VerifierSetupError> {
        let keys = KeySet::fetched(
            jwks_uri,
            settings.fetch.clone(),
            settings.algorithms.clone(),
            settings.key_refetch_interval,
            settings.key_max_age,
        )
        .await?;
        let validations = settings
            .algorithms
            .iter()
            .map(|&algorithm| (algorithm, validation(settings, audience, algorithm)))
            .collect();
        Ok(SignedTokens { keys, validations })
    }

    /// The claims of `token`, if its signature and standard claims hold.
    pub async fn claims<C: DeserializeOwned>(&self, token: &str) -> Result<C, Unverified> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| Unverified::NotSigned)?;
        let validation = self
            .validations
            .get(&header.alg)
            .ok_or(Unverified::AlgorithmRefused)?;
        let key = self
            .keys
            .key(header.kid.as_deref(), header.alg)
            .await
            .ok_or(Unverified::UnknownKey)?;
        jsonwebtoken::decode::<C>(token, &key.decoding, validation)
            .map(|data| data.claims)
            .map_err(|error| Unverified::Claims(error.into_kind()))
    }
}

fn validation(settings: &Settings, audience: &str, algorithm: Algorithm) -> Validation {
    let mut validation = Validation::new(algorithm);
    validation.set_issuer(&[&settings.issuer]);
    validation.set_audience(&[audience]);
    validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
    validation.validate_nbf = true;
    validation.leeway = settings.leeway.as_secs();
    validation
}
