//! Field names that look like secrets. The spec forbids asking for passwords, API keys, access
//! tokens or payment credentials through form mode, so such a name is refused at compile time.
//! The check splits a name into words in any case style (`apiKey`, `API_KEY`, `api-key`), so the
//! same rule holds whatever `rename_all` does.

/// Words that name a secret on their own (compared after dropping a plural `s`).
const WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "passphrase",
    "passcode",
    "secret",
    "token",
    "credential",
    "pin",
    "cvv",
    "cvv2",
    "cvc",
    "ssn",
    "apikey",
    "otp",
    "totp",
    "bearer",
    "jwt",
    "iban",
    "privatekey",
    "accesskey",
    "secretkey",
    "cardnumber",
    "ccnumber",
    "creditcard",
    "mnemonic",
    "seedphrase",
];

/// Runs of words that name a secret together.
const PHRASES: &[&[&str]] = &[
    &["api", "key"],
    &["access", "key"],
    &["private", "key"],
    &["secret", "key"],
    &["signing", "key"],
    &["encryption", "key"],
    &["session", "key"],
    &["card", "number"],
    &["credit", "card"],
    &["cc", "number"],
    &["security", "code"],
    &["social", "security"],
    &["seed", "phrase"],
    &["recovery", "phrase"],
    &["account", "number"],
    &["routing", "number"],
    &["auth", "code"],
    &["verification", "code"],
];

/// Compounds found inside a single word (`myapikey`), where a false match is unlikely.
const INFIXES: &[&str] = &[
    "password",
    "passphrase",
    "apikey",
    "privatekey",
    "secretkey",
    "accesskey",
    "cardnumber",
    "creditcard",
];

/// Splits `fullName`, `full_name`, `FULL-NAME` or `FullName2` into lowercase words.
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &ch) in chars.iter().enumerate() {
        if !ch.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let boundary = match prev {
            Some(p) if p.is_alphanumeric() => {
                (p.is_lowercase() && ch.is_uppercase())
                    || (p.is_uppercase()
                        && ch.is_uppercase()
                        && next.is_some_and(char::is_lowercase))
            }
            _ => false,
        };
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.extend(ch.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

fn singular(word: &str) -> &str {
    word.strip_suffix('s')
        .filter(|w| w.len() > 2)
        .unwrap_or(word)
}

/// The secret-like term `name` contains, if any.
pub fn sensitive_term(name: &str) -> Option<String> {
    let words = words(name);
    for word in &words {
        let plain = singular(word);
        if WORDS.contains(&word.as_str()) || WORDS.contains(&plain) {
            return Some(word.clone());
        }
        if let Some(infix) = INFIXES.iter().find(|i| word.contains(*i)) {
            return Some((*infix).to_owned());
        }
    }
    for phrase in PHRASES {
        let found = words.windows(phrase.len()).any(|window| {
            window
                .iter()
                .zip(phrase.iter())
                .all(|(w, p)| w == p || singular(w) == *p)
        });
        if found {
            return Some(phrase.join(" "));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::sensitive_term;

    #[test]
    fn secrets_in_every_case_style() {
        for name in [
            "password",
            "userPassword",
            "USER_PASSWORD",
            "api_key",
            "apiKey",
            "ApiKey",
            "API-KEY",
            "access_token",
            "refreshToken",
            "client_secret",
            "privateKey",
            "pin",
            "pin_code",
            "cvv",
            "CVC",
            "card_number",
            "cardNumber",
            "creditCardNumber",
            "ssn",
            "passphrase",
            "credentials",
            "myapikey",
            "security_code",
            "seedPhrase",
            "otp",
        ] {
            assert!(
                sensitive_term(name).is_some(),
                "{name} should look sensitive"
            );
        }
    }

    #[test]
    fn ordinary_names_pass() {
        for name in [
            "full_name",
            "email",
            "age",
            "username",
            "spinner",
            "pinned",
            "opinion",
            "keyboard",
            "access_level",
            "card_title",
            "tokenizer_kind",
            "shipping",
            "description",
        ] {
            assert_eq!(
                sensitive_term(name),
                None,
                "{name} should not look sensitive"
            );
        }
    }
}
