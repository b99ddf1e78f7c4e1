//! Case conversions of Rust names: the `rename_all` rules, with the names and behaviour of
//! serde's so both agree on wire names; a type's name in snake case (a form's input key); and
//! the title a person reads, made from a field's or variant's name.

use syn::LitStr;

/// A `rename_all` case convention.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

const RULES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl RenameRule {
    pub fn from_lit(lit: &LitStr) -> syn::Result<Self> {
        let name = lit.value();
        RULES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, rule)| *rule)
            .ok_or_else(|| {
                let names: Vec<&str> = RULES.iter().map(|(n, _)| *n).collect();
                syn::Error::new(
                    lit.span(),
                    format!(
                        "unknown rename_all rule \"{name}\"; expected one of {}",
                        names.join(", ")
                    ),
                )
            })
    }

    /// The rule's name, as written in the attribute.
    pub fn name(self) -> &'static str {
        RULES
            .iter()
            .find(|(_, rule)| *rule == self)
            .map_or("", |(name, _)| name)
    }

    /// Renames a struct field, written in snake_case in Rust.
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            RenameRule::Camel => {
                let pascal = RenameRule::Pascal.apply_to_field(field);
                lower_first(&pascal)
            }
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// Renames an enum variant, written in PascalCase in Rust.
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => lower_first(variant),
            RenameRule::Snake => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                snake
            }
            RenameRule::ScreamingSnake => RenameRule::Snake
                .apply_to_variant(variant)
                .to_ascii_uppercase(),
            RenameRule::Kebab => RenameRule::Snake
                .apply_to_variant(variant)
                .replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake
                .apply_to_variant(variant)
                .replace('_', "-"),
        }
    }
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// A type's name in snake case, the default input key of a form: a word starts after a
/// lowercase letter or a digit, or at the last capital of an acronym that a lowercase letter
/// follows (`UserName` is `user_name`; `HTTPSProxy` and `HttpsProxy` are `https_proxy`).
pub fn type_name_in_snake_case(name: &str) -> String {
    let name = name.strip_prefix("r#").unwrap_or(name);
    let chars: Vec<char> = name.chars().collect();
    let mut snake = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if starts_a_word(&chars, i) {
            snake.push('_');
        }
        snake.extend(c.to_lowercase());
    }
    snake
}

/// Whether `chars[i]`, a capital, starts a word of a camel- or PascalCase name: after a
/// lowercase letter or a digit (`userName`, `Step2Color`), or as the last capital of an
/// acronym that a lowercase letter follows (the `P` of `HTTPSProxy`).
fn starts_a_word(chars: &[char], i: usize) -> bool {
    let c = chars[i];
    if !c.is_uppercase() || i == 0 {
        return false;
    }
    let previous = chars[i - 1];
    let next_is_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
    previous.is_lowercase()
        || previous.is_ascii_digit()
        || (previous.is_uppercase() && next_is_lower)
}

/// The title a person reads for a field or variant, made from its Rust name (never its wire
/// name, which may be a machine's: `checkIn`, `#FF0000`). Words are what underscores and case
/// changes separate (`check_in` and `CheckIn` are "Check in"); digits stay in the word they
/// are written in (`address_line2` is "Address line2", `address_line_2` "Address line 2");
/// a word written in capitals is an acronym and keeps them (`HTTPSProxy` is "HTTPS proxy",
/// while `https_proxy` is "Https proxy": a lowercase name says nothing of acronyms); every
/// other word is lowercased, and the first one capitalized.
pub fn title_from_name(name: &str) -> String {
    let name = name.strip_prefix("r#").unwrap_or(name);
    let chars: Vec<char> = name.chars().collect();
    let mut words: Vec<String> = vec![String::new()];
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' || starts_a_word(&chars, i) {
            words.push(String::new());
        }
        if c != '_' {
            words.last_mut().expect("one word at least").push(c);
        }
    }
    let words = words.into_iter().filter(|word| !word.is_empty());
    let mut title = String::with_capacity(name.len() + 2);
    for (i, word) in words.enumerate() {
        if i > 0 {
            title.push(' ');
        }
        let acronym = word.chars().filter(|c| c.is_alphabetic()).count() > 1
            && !word.chars().any(char::is_lowercase);
        match (i, acronym) {
            (_, true) => title.push_str(&word),
            (0, false) => {
                let mut rest = word.chars();
                if let Some(first) = rest.next() {
                    title.extend(first.to_uppercase());
                    title.push_str(&rest.as_str().to_lowercase());
                }
            }
            (_, false) => title.push_str(&word.to_lowercase()),
        }
    }
    title
}

#[cfg(test)]
mod tests {
    use super::{title_from_name, type_name_in_snake_case};

    #[test]
    fn type_names_in_snake_case() {
        assert_eq!(type_name_in_snake_case("UserName"), "user_name");
        assert_eq!(type_name_in_snake_case("HTTPSProxy"), "https_proxy");
        assert_eq!(type_name_in_snake_case("HttpsProxy"), "https_proxy");
        assert_eq!(type_name_in_snake_case("Step2Color"), "step2_color");
        assert_eq!(type_name_in_snake_case("A"), "a");
        assert_eq!(type_name_in_snake_case("r#Type"), "type");
    }

    #[test]
    fn titles_from_field_names() {
        assert_eq!(title_from_name("check_in"), "Check in");
        assert_eq!(title_from_name("nights"), "Nights");
        assert_eq!(title_from_name("r#type"), "Type");
        assert_eq!(title_from_name("address_line2"), "Address line2");
        assert_eq!(title_from_name("address_line_2"), "Address line 2");
        assert_eq!(title_from_name("_private__name_"), "Private name");
        assert_eq!(title_from_name("https_proxy"), "Https proxy");
        assert_eq!(title_from_name("x"), "X");
    }

    #[test]
    fn titles_from_variant_names() {
        assert_eq!(title_from_name("NextDay"), "Next day");
        assert_eq!(title_from_name("Standard"), "Standard");
        assert_eq!(title_from_name("HTTPSProxy"), "HTTPS proxy");
        assert_eq!(title_from_name("UsdAccount"), "Usd account");
        assert_eq!(title_from_name("Step2Color"), "Step2 color");
        assert_eq!(title_from_name("A"), "A");
        assert_eq!(title_from_name("OK"), "OK");
        assert_eq!(title_from_name("r#Type"), "Type");
        assert_eq!(title_from_name("Élan"), "Élan");
    }
}
