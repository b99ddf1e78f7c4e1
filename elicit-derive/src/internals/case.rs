//! `rename_all` rules, with the names and behaviour of serde's, so both agree on wire names.

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
        if c.is_uppercase() && i > 0 {
            let previous = chars[i - 1];
            let next_is_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if previous.is_lowercase()
                || previous.is_ascii_digit()
                || (previous.is_uppercase() && next_is_lower)
            {
                snake.push('_');
            }
        }
        snake.extend(c.to_lowercase());
    }
    snake
}

#[cfg(test)]
mod tests {
    use super::type_name_in_snake_case;

    #[test]
    fn type_names_in_snake_case() {
        assert_eq!(type_name_in_snake_case("UserName"), "user_name");
        assert_eq!(type_name_in_snake_case("HTTPSProxy"), "https_proxy");
        assert_eq!(type_name_in_snake_case("HttpsProxy"), "https_proxy");
        assert_eq!(type_name_in_snake_case("Step2Color"), "step2_color");
        assert_eq!(type_name_in_snake_case("A"), "a");
        assert_eq!(type_name_in_snake_case("r#Type"), "type");
    }
}
