//! The page's HTML: the form drawn from its schema, plain HTML that works without JavaScript,
//! each input tied to its label, and its hint and error by `aria-describedby`; and the short
//! pages that say what happened. One small stylesheet, inline, allowed by the page's
//! `Content-Security-Policy` by its hash.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::LazyLock;

use base64::Engine as _;
use sha2::{Digest, Sha256};

use super::read::{FieldMessage, Shown, ShownValues};
use crate::client::answer::{
    choices_of, count_rule, is_multi, item_bounds, label_of, number_rules, string_rules,
};
use crate::schema::{NumberType, PrimitiveSchema, Property, RequestedSchema, StringFormat};

/// The page's only style.
const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}\
main{max-width:34rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border-radius:10px;\
box-shadow:0 1px 4px rgba(0,0,0,.12)}\
.server{margin:0;color:#555;font-size:.9rem}h1{font-size:1.35rem;margin:.3rem 0 1.2rem}\
.field{margin:0 0 1.1rem;border:0;padding:0}label,legend{display:block;font-weight:600}\
.req{color:#b00020}.hint{margin:.15rem 0 .3rem;color:#555;font-size:.9rem}\
.error{margin:.2rem 0;color:#b00020;font-size:.9rem}\
input[type=text],input[type=email],input[type=url],input[type=date],input[type=number],\
input[type=password],select{width:100%;box-sizing:border-box;padding:.45rem;font:inherit;\
border:1px solid #9aa1ad;border-radius:6px}[aria-invalid=true]{border-color:#b00020}\
.choice{font-weight:400;display:flex;gap:.5rem;align-items:center}\
.alert{border-left:4px solid #b00020;background:#fdecee;padding:.5rem .8rem;margin:0 0 1rem}\
.actions{display:flex;gap:.6rem;margin-top:1.5rem}button{font:inherit;padding:.5rem 1.1rem;\
border-radius:6px;border:1px solid #9aa1ad;background:#fff;cursor:pointer}\
button.send{background:#1f5fd6;border-color:#1f5fd6;color:#fff}\
.note{color:#555;font-size:.85rem;margin-top:1.5rem}";

/// The `Content-Security-Policy` of every page: nothing but the one stylesheet, no frames, and
/// forms posted only back here.
pub(super) static POLICY: LazyLock<String> = LazyLock::new(|| {
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(STYLE));
    format!(
        "default-src 'none'; style-src 'sha256-{hash}'; form-action 'self'; \
         frame-ancestors 'none'; base-uri 'none'"
    )
});

/// Text made safe inside HTML, in an element or in a quoted attribute.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A whole page around `body`.
pub(super) fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"referrer\" content=\"no-referrer\"><title>{}</title><style>{STYLE}</style>\
         </head><body><main>{body}</main></body></html>\n",
        escape(title)
    )
}

/// A page that only says something: what happened, and what to do next.
pub(super) fn notice(server: &str, heading: &str, text: &str) -> String {
    page(
        heading,
        &format!(
            "<p class=\"server\">{}</p><h1>{}</h1><p>{}</p>",
            escape(server),
            escape(heading),
            escape(text)
        ),
    )
}

/// What a form page shows.
pub(crate) struct FormPage<'a> {
    pub server: &'a str,
    pub message: &'a str,
    pub schema: &'a RequestedSchema,
    pub secret_fields: &'a [Cow<'a, str>],
    pub token: &'a str,
    pub shown: &'a ShownValues,
    pub refused: &'a [FieldMessage],
}

impl FormPage<'_> {
    /// The form, as HTML.
    pub(crate) fn render(&self) -> String {
        let mut body = format!(
            "<p class=\"server\">{} asks:</p><h1>{}</h1>",
            escape(self.server),
            escape(self.message)
        );
        if !self.refused.is_empty() {
            body.push_str(
                "<div class=\"alert\" role=\"alert\"><p>Some answers need a change: see the \
                 fields marked below.</p></div>",
            );
        }
        let _ = write!(
            body,
            "<form method=\"post\"><input type=\"hidden\" name=\"_csrf\" value=\"{}\">",
            escape(self.token)
        );
        for (index, property) in self.schema.properties().iter().enumerate() {
            self.field(&mut body, index, property);
        }
        body.push_str(
            "<div class=\"actions\"><button class=\"send\" type=\"submit\" name=\"_action\" \
             value=\"send\">Send</button><button type=\"submit\" name=\"_action\" \
             value=\"decline\" formnovalidate>Decline</button><button type=\"submit\" \
             name=\"_action\" value=\"cancel\" formnovalidate>Cancel</button></div></form>",
        );
        let _ = write!(
            body,
            "<p class=\"note\">This page is served by {} itself: what you type here goes to \
             it directly, never through your MCP client.</p>",
            escape(self.server)
        );
        page(self.message, &body)
    }

    fn field(&self, out: &mut String, index: usize, property: &Property) {
        let id = format!("f{index}");
        let name = &*property.name;
        let secret = self.secret_fields.iter().any(|field| field == name);
        let error = self
            .refused
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, message)| message.as_str());
        let hint = hint_of(property);
        let mut described = Vec::new();
        if hint.is_some() {
            described.push(format!("{id}-hint"));
        }
        if error.is_some() {
            described.push(format!("{id}-error"));
        }
        let aria = aria(&described, error.is_some());
        let required = if property.required {
            " <span class=\"req\" aria-hidden=\"true\">*</span>"
        } else {
            ""
        };
        let label = escape(label_of(property));
        let hint_html = hint.map_or_else(String::new, |hint| {
            format!("<p class=\"hint\" id=\"{id}-hint\">{}</p>", escape(&hint))
        });
        let error_html = error.map_or_else(String::new, |error| {
            format!("<p class=\"error\" id=\"{id}-error\">{}</p>", escape(error))
        });
        let shown = if secret { None } else { self.shown.get(name) };
        let required_attr = if property.required { " required" } else { "" };
        match &property.schema {
            PrimitiveSchema::Boolean(_) => {
                let checked = if shown == Some(&Shown::Ticked(true)) {
                    " checked"
                } else {
                    ""
                };
                let _ = write!(
                    out,
                    "<div class=\"field\"><label class=\"choice\" for=\"{id}\"><input \
                     type=\"checkbox\" id=\"{id}\" name=\"{}\" value=\"true\"{checked}{aria}>\
                     {label}</label>{hint_html}{error_html}</div>",
                    escape(name)
                );
            }
            schema if is_multi(schema) => {
                let ticked: &[String] = match shown {
                    Some(Shown::Many(values)) => values,
                    _ => &[],
                };
                let _ = write!(
                    out,
                    "<fieldset class=\"field\"{aria}><legend>{label}{required}</legend>{hint_html}"
                );
                for (position, choice) in choices_of(schema).into_iter().enumerate() {
                    let value = choice.value.unwrap_or_default();
                    let checked = if ticked.contains(&value) {
                        " checked"
                    } else {
                        ""
                    };
                    let _ = write!(
                        out,
                        "<label class=\"choice\" for=\"{id}-{position}\"><input type=\"checkbox\" \
                         id=\"{id}-{position}\" name=\"{}\" value=\"{}\"{checked}>{}</label>",
                        escape(name),
                        escape(&value),
                        escape(&choice.title)
                    );
                }
                let _ = write!(out, "{error_html}</fieldset>");
            }
            schema if schema.choices().is_some() => {
                let picked = match shown {
                    Some(Shown::Text(value)) => Some(value.as_str()),
                    _ => None,
                };
                let _ = write!(
                    out,
                    "<div class=\"field\"><label for=\"{id}\">{label}{required}</label>{hint_html}\
                     <select id=\"{id}\" name=\"{}\"{required_attr}{aria}>",
                    escape(name)
                );
                let empty = if picked.is_none() { " selected" } else { "" };
                let _ = write!(out, "<option value=\"\"{empty}>Choose…</option>");
                for choice in choices_of(schema) {
                    let value = choice.value.unwrap_or_default();
                    let selected = if picked == Some(value.as_str()) {
                        " selected"
                    } else {
                        ""
                    };
                    let _ = write!(
                        out,
                        "<option value=\"{}\"{selected}>{}</option>",
                        escape(&value),
                        escape(&choice.title)
                    );
                }
                let _ = write!(out, "</select>{error_html}</div>");
            }
            schema => {
                let value = match shown {
                    Some(Shown::Text(value)) => format!(" value=\"{}\"", escape(value)),
                    _ => String::new(),
                };
                let kind = input_kind(schema, secret);
                let limits = input_limits(schema);
                let no_fill = if secret {
                    " autocomplete=\"off\" spellcheck=\"false\""
                } else {
                    ""
                };
                let _ = write!(
                    out,
                    "<div class=\"field\"><label for=\"{id}\">{label}{required}</label>{hint_html}\
                     <input type=\"{kind}\" id=\"{id}\" name=\"{}\"{value}{limits}{required_attr}\
                     {no_fill}{aria}>{error_html}</div>",
                    escape(name)
                );
            }
        }
    }
}

fn aria(described: &[String], invalid: bool) -> String {
    let mut aria = String::new();
    if !described.is_empty() {
        let _ = write!(aria, " aria-describedby=\"{}\"", described.join(" "));
    }
    if invalid {
        aria.push_str(" aria-invalid=\"true\"");
    }
    aria
}

/// The field's description, then the rules an answer must meet, as the person reads them.
fn hint_of(property: &Property) -> Option<String> {
    let mut parts: Vec<String> = property
        .schema
        .description()
        .map(str::to_owned)
        .into_iter()
        .collect();
    match &property.schema {
        PrimitiveSchema::String(s) => parts.extend(string_rules(s)),
        PrimitiveSchema::Number(s) => parts.extend(number_rules(s)),
        schema if is_multi(schema) => {
            let (least, most) = item_bounds(schema);
            parts.extend(count_rule(least, most));
        }
        _ => {}
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// The input's type: a password for a secret, the format's own where a browser checks it.
fn input_kind(schema: &PrimitiveSchema, secret: bool) -> &'static str {
    if secret {
        return "password";
    }
    match schema {
        PrimitiveSchema::String(s) => match s.format {
            Some(StringFormat::Email) => "email",
            Some(StringFormat::Uri) => "url",
            Some(StringFormat::Date) => "date",
            // A browser's date-time input sends no offset, which the format needs.
            _ => "text",
        },
        PrimitiveSchema::Number(_) => "number",
        _ => "text",
    }
}

/// The limits a browser checks before sending: lengths, bounds and steps.
fn input_limits(schema: &PrimitiveSchema) -> String {
    let mut limits = String::new();
    match schema {
        PrimitiveSchema::String(s) => {
            if let Some(min) = s.min_length {
                let _ = write!(limits, " minlength=\"{min}\"");
            }
            if let Some(max) = s.max_length {
                let _ = write!(limits, " maxlength=\"{max}\"");
            }
        }
        PrimitiveSchema::Number(n) => {
            if let Some(min) = &n.minimum {
                let _ = write!(limits, " min=\"{min}\"");
            }
            if let Some(max) = &n.maximum {
                let _ = write!(limits, " max=\"{max}\"");
            }
            limits.push_str(match n.kind {
                NumberType::Integer => " step=\"1\"",
                NumberType::Number => " step=\"any\"",
            });
        }
        _ => {}
    }
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_kind() -> RequestedSchema {
        serde_json::from_str(
            r#"{"type":"object","properties":{
                "key":{"type":"string","title":"API key","minLength":8},
                "email":{"type":"string","format":"email","description":"Where we write"},
                "day":{"type":"string","format":"date","default":"2026-12-24"},
                "nights":{"type":"integer","title":"Nights","minimum":1,"maximum":30,"default":2},
                "share":{"type":"boolean","title":"Share","default":true},
                "size":{"type":"string","enum":["s","m"]},
                "room":{"type":"string","oneOf":[{"const":"std","title":"Standard <room>"},{"const":"suite","title":"Suite"}]},
                "extras":{"type":"array","title":"Extras","minItems":1,"items":{"anyOf":[{"const":"bf","title":"Breakfast"},{"const":"park","title":"Parking"}]},"default":["bf"]}
            },"required":["key","nights","extras"]}"#,
        )
        .unwrap()
    }

    fn rendered(refused: &[FieldMessage]) -> String {
        let schema = every_kind();
        let shown = super::super::read::defaults(&schema);
        FormPage {
            server: "Calendar <&>",
            message: "Connect",
            schema: &schema,
            secret_fields: &[Cow::Borrowed("key")],
            token: "tok",
            shown: &shown,
            refused,
        }
        .render()
    }

    #[test]
    fn every_field_kind_is_drawn_with_its_label_rules_and_default() {
        let html = rendered(&[]);
        for expected in [
            r#"<p class="server">Calendar &lt;&amp;&gt; asks:</p><h1>Connect</h1>"#,
            r#"<input type="hidden" name="_csrf" value="tok">"#,
            // A secret: a password input, never filled in.
            r#"<label for="f0">API key <span class="req" aria-hidden="true">*</span></label>"#,
            r#"<input type="password" id="f0" name="key" minlength="8" required autocomplete="off" spellcheck="false" aria-describedby="f0-hint">"#,
            r#"<p class="hint" id="f1-hint">Where we write · an email address like name@example.com</p>"#,
            r#"type="email" id="f1" name="email""#,
            r#"type="date" id="f2" name="day" value="2026-12-24""#,
            r#"type="number" id="f3" name="nights" value="2" min="1" max="30" step="1" required"#,
            r#"<input type="checkbox" id="f4" name="share" value="true" checked>Share</label>"#,
            r#"<select id="f5" name="size"><option value="" selected>Choose…</option><option value="s">s</option>"#,
            r#"<option value="std">Standard &lt;room&gt;</option><option value="suite">Suite</option>"#,
            r#"<fieldset class="field" aria-describedby="f7-hint"><legend>Extras <span class="req" aria-hidden="true">*</span></legend>"#,
            r#"<input type="checkbox" id="f7-0" name="extras" value="bf" checked>Breakfast</label>"#,
            r#"<input type="checkbox" id="f7-1" name="extras" value="park">Parking</label>"#,
            r#"<button class="send" type="submit" name="_action" value="send">Send</button>"#,
            r#"value="decline" formnovalidate>Decline</button>"#,
        ] {
            assert!(html.contains(expected), "`{expected}` is not in:\n{html}");
        }
        assert!(!html.contains("role=\"alert\""));
    }

    #[test]
    fn an_error_is_tied_to_its_input() {
        let html = rendered(&[(
            "nights".to_owned(),
            "Nights must be at most 30, got 31".to_owned(),
        )]);
        assert!(html.contains(r#"<div class="alert" role="alert">"#));
        assert!(html.contains(r#"aria-describedby="f3-hint f3-error" aria-invalid="true">"#));
        assert!(
            html.contains(
                r#"<p class="error" id="f3-error">Nights must be at most 30, got 31</p>"#
            )
        );
    }

    #[test]
    fn text_is_escaped_and_the_policy_allows_the_style_by_its_hash() {
        assert_eq!(
            escape(r#"<b a="1">&'"#),
            "&lt;b a=&quot;1&quot;&gt;&amp;&#39;"
        );
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(STYLE));
        assert!(POLICY.contains(&format!("style-src 'sha256-{hash}'")));
        assert!(POLICY.starts_with("default-src 'none';"));
        assert!(POLICY.contains("frame-ancestors 'none'"));
    }
}
