//! Reads `#[elicit(..)]` (and the `rename`/`rename_all` of `#[serde(..)]`) by hand with syn's
//! `parse_nested_meta`. Every problem is recorded in the context and reading goes on, so one
//! compile shows all of them.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, ExprLit, ExprUnary, Lit, LitInt, LitStr, UnOp};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// One attribute value with the tokens it came from, set at most once.
pub struct Attr<T> {
    name: &'static str,
    value: Option<(TokenStream, T)>,
}

impl<T> Attr<T> {
    fn none(name: &'static str) -> Self {
        Attr { name, value: None }
    }

    fn set<K: ToTokens>(&mut self, cx: &Ctxt, key: K, value: T) {
        let tokens = key.into_token_stream();
        if self.value.is_some() {
            cx.error_spanned_by(
                &tokens,
                format!("duplicate elicit attribute `{}`", self.name),
            );
        } else {
            self.value = Some((tokens, value));
        }
    }

    pub fn get(&self) -> Option<&T> {
        self.value.as_ref().map(|(_, v)| v)
    }

    /// The tokens of the attribute, for spanning errors on it.
    pub fn tokens(&self) -> Option<&TokenStream> {
        self.value.as_ref().map(|(t, _)| t)
    }

    pub fn is_set(&self) -> bool {
        self.value.is_some()
    }
}

/// A numeric literal as the user wrote it, possibly negated.
#[derive(Clone)]
pub struct NumLit {
    pub tokens: TokenStream,
    pub value: NumValue,
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum NumValue {
    Int(i128),
    Float(f64),
}

impl NumValue {
    pub fn as_f64(self) -> f64 {
        match self {
            NumValue::Int(i) => i as f64,
            NumValue::Float(f) => f,
        }
    }
}

/// What a `default = ..` expression is, judged from its syntax.
pub enum DefaultKind {
    Str(String),
    Number(NumValue),
    Bool(bool),
    /// A variant of a choice enum: `Color::Red`.
    Choice,
    /// An array of variants for a multi-select: `[Color::Red, Color::Green]`.
    Choices(Vec<Expr>),
}

pub struct Default {
    pub expr: Expr,
    pub kind: DefaultKind,
}

pub struct Container {
    pub message: Attr<LitStr>,
    pub rename_all: Attr<RenameRule>,
    pub serde_rename_all: Option<(LitStr, RenameRule)>,
    pub krate: Attr<syn::Path>,
}

pub struct Field {
    pub title: Attr<LitStr>,
    pub description: Attr<LitStr>,
    pub default: Attr<Default>,
    pub format: Attr<LitStr>,
    pub min_length: Attr<u64>,
    pub max_length: Attr<u64>,
    pub pattern: Attr<LitStr>,
    pub minimum: Attr<NumLit>,
    pub maximum: Attr<NumLit>,
    pub min_items: Attr<u64>,
    pub max_items: Attr<u64>,
    pub rename: Attr<LitStr>,
    pub serde_rename: Option<LitStr>,
    pub skip: Attr<()>,
    pub not_sensitive: Attr<()>,
    pub doc: Option<String>,
}

pub struct Variant {
    pub title: Attr<LitStr>,
    pub rename: Attr<LitStr>,
    pub serde_rename: Option<LitStr>,
}

const CONTAINER_KEYS: &str = "message, rename_all, crate";
const FIELD_KEYS: &str = "title, description, default, format, min_length, max_length, pattern, \
     minimum, maximum, min_items, max_items, rename, skip, not_sensitive";
const VARIANT_KEYS: &str = "title, rename";

/// Runs `each` on every item of every `#[elicit(..)]` attribute, recording parse errors.
fn for_each_elicit_meta(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut each: impl FnMut(&ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("elicit")) {
        if let Err(err) = attr.parse_nested_meta(|meta| each(&meta)) {
            cx.syn_error(err);
        }
    }
}

fn unknown(meta: &ParseNestedMeta, allowed: &str) -> syn::Error {
    let name = meta.path.to_token_stream().to_string().replace(' ', "");
    meta.error(format!(
        "unknown elicit attribute `{name}`; expected one of: {allowed}"
    ))
}

fn lit_str(meta: &ParseNestedMeta) -> syn::Result<LitStr> {
    meta.value()?.parse()
}

fn count(meta: &ParseNestedMeta) -> syn::Result<u64> {
    let lit: LitInt = meta.value()?.parse()?;
    lit.base10_parse::<u64>()
        .map_err(|_| syn::Error::new(lit.span(), "expected a non-negative integer"))
}

/// Reads a number literal, `-` allowed.
fn num_lit(meta: &ParseNestedMeta) -> syn::Result<NumLit> {
    let expr: Expr = meta.value()?.parse()?;
    num_from_expr(&expr).ok_or_else(|| syn::Error::new_spanned(&expr, "expected a number literal"))
}

pub fn num_from_expr(expr: &Expr) -> Option<NumLit> {
    let (negative, lit) = match expr {
        Expr::Lit(ExprLit { lit, .. }) => (false, lit),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => match &**expr {
            Expr::Lit(ExprLit { lit, .. }) => (true, lit),
            _ => return None,
        },
        _ => return None,
    };
    let sign = if negative { -1.0 } else { 1.0 };
    let value = match lit {
        Lit::Int(int) => {
            let magnitude = int.base10_parse::<i128>().ok()?;
            NumValue::Int(if negative { -magnitude } else { magnitude })
        }
        Lit::Float(float) => NumValue::Float(sign * float.base10_parse::<f64>().ok()?),
        _ => return None,
    };
    Some(NumLit {
        tokens: expr.to_token_stream(),
        value,
    })
}

fn default_value(meta: &ParseNestedMeta) -> syn::Result<Default> {
    let expr: Expr = meta.value()?.parse()?;
    let kind = match &expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => DefaultKind::Str(s.value()),
        Expr::Lit(ExprLit {
            lit: Lit::Bool(b), ..
        }) => DefaultKind::Bool(b.value),
        Expr::Array(array) => DefaultKind::Choices(array.elems.iter().cloned().collect()),
        Expr::Path(path) if !names_a_variant(&path.path) => {
            return Err(syn::Error::new_spanned(
                &expr,
                "a `default` written as a path must name a variant of the field's choice enum, \
                 such as `Color::Red`; for a string, number or bool field write the value as a \
                 literal (constants are not supported)",
            ));
        }
        Expr::Path(_) => DefaultKind::Choice,
        other => match num_from_expr(other) {
            Some(num) => DefaultKind::Number(num.value),
            None => {
                return Err(syn::Error::new_spanned(
                    other,
                    "`default` must be a literal (string, number, bool), a variant of a choice \
                     enum such as `Color::Red`, or an array of variants such as \
                     `[Color::Red, Color::Green]`",
                ));
            }
        },
    };
    Ok(Default { expr, kind })
}

/// Whether a path can be `Enum::Variant`: two segments or more, not starting with a primitive
/// type or `String` (whose associated constants, `u8::MAX` say, are values of no choice enum).
fn names_a_variant(path: &syn::Path) -> bool {
    const NOT_ENUMS: &[&str] = &[
        "bool", "char", "str", "String", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16",
        "i32", "i64", "i128", "isize", "f32", "f64",
    ];
    let first = path.segments.first().map(|s| s.ident.to_string());
    path.segments.len() >= 2 && !first.is_some_and(|first| NOT_ENUMS.contains(&first.as_str()))
}

/// Reads the `rename`/`rename_all` of `#[serde(..)]`, ignoring serde's other keys.
fn for_each_serde_meta(
    attrs: &[Attribute],
    mut each: impl FnMut(&ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        // Serde's own derive reports malformed serde attributes; we read what we understand.
        let _ = attr.parse_nested_meta(|meta| {
            each(&meta)?;
            skip_rest(&meta)
        });
    }
}

/// Consumes the value of a serde key we do not read, whatever its shape.
fn skip_rest(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_rest(&inner))?;
    }
    Ok(())
}

/// `rename = "x"` or `rename(deserialize = "x", ..)`: the name content is read with.
fn serde_rename(meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<LitStr>> {
    if !meta.path.is_ident(key) {
        return Ok(None);
    }
    if meta.input.peek(syn::Token![=]) {
        return Ok(Some(lit_str(meta)?));
    }
    let mut found = None;
    meta.parse_nested_meta(|inner| {
        let value = lit_str(&inner)?;
        if inner.path.is_ident("deserialize") {
            found = Some(value);
        }
        Ok(())
    })?;
    Ok(found)
}

pub fn doc_comment(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
        {
            lines.push(s.value());
        }
    }
    // Lines of one paragraph are joined with spaces, paragraphs with a blank line, as rustdoc
    // renders them.
    let mut text = String::new();
    for line in lines.iter().map(|l| l.trim()) {
        if line.is_empty() {
            if !text.is_empty() && !text.ends_with("\n\n") {
                text.push_str("\n\n");
            }
        } else {
            if !text.is_empty() && !text.ends_with("\n\n") {
                text.push(' ');
            }
            text.push_str(line);
        }
    }
    let text = text.trim().to_owned();
    (!text.is_empty()).then_some(text)
}

impl Container {
    /// The `rename_all` rule: elicit's, else serde's (the checks require them to agree).
    pub fn rename_rule(&self) -> Option<RenameRule> {
        self.rename_all
            .get()
            .copied()
            .or(self.serde_rename_all.as_ref().map(|(_, rule)| *rule))
    }

    pub fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut container = Container {
            message: Attr::none("message"),
            rename_all: Attr::none("rename_all"),
            serde_rename_all: None,
            krate: Attr::none("crate"),
        };
        for_each_elicit_meta(cx, attrs, |meta| {
            let key = &meta.path;
            if key.is_ident("message") {
                container.message.set(cx, key, lit_str(meta)?);
            } else if key.is_ident("rename_all") {
                let lit = lit_str(meta)?;
                container
                    .rename_all
                    .set(cx, key, RenameRule::from_lit(&lit)?);
            } else if key.is_ident("crate") {
                let lit = lit_str(meta)?;
                container.krate.set(cx, key, lit.parse()?);
            } else {
                return Err(unknown(meta, CONTAINER_KEYS));
            }
            Ok(())
        });
        for_each_serde_meta(attrs, |meta| {
            if let Some(lit) = serde_rename(meta, "rename_all")?
                && let Ok(rule) = RenameRule::from_lit(&lit)
            {
                container.serde_rename_all = Some((lit, rule));
            }
            Ok(())
        });
        container
    }
}

impl Field {
    pub fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut field = Field {
            title: Attr::none("title"),
            description: Attr::none("description"),
            default: Attr::none("default"),
            format: Attr::none("format"),
            min_length: Attr::none("min_length"),
            max_length: Attr::none("max_length"),
            pattern: Attr::none("pattern"),
            minimum: Attr::none("minimum"),
            maximum: Attr::none("maximum"),
            min_items: Attr::none("min_items"),
            max_items: Attr::none("max_items"),
            rename: Attr::none("rename"),
            serde_rename: None,
            skip: Attr::none("skip"),
            not_sensitive: Attr::none("not_sensitive"),
            doc: doc_comment(attrs),
        };
        for_each_elicit_meta(cx, attrs, |meta| {
            let key = &meta.path;
            let f = &mut field;
            match key.get_ident().map(|i| i.to_string()).as_deref() {
                Some("title") => f.title.set(cx, key, lit_str(meta)?),
                Some("description") => f.description.set(cx, key, lit_str(meta)?),
                Some("default") => f.default.set(cx, key, default_value(meta)?),
                Some("format") => f.format.set(cx, key, lit_str(meta)?),
                Some("min_length") => f.min_length.set(cx, key, count(meta)?),
                Some("max_length") => f.max_length.set(cx, key, count(meta)?),
                Some("pattern") => f.pattern.set(cx, key, lit_str(meta)?),
                Some("minimum") => f.minimum.set(cx, key, num_lit(meta)?),
                Some("maximum") => f.maximum.set(cx, key, num_lit(meta)?),
                Some("min_items") => f.min_items.set(cx, key, count(meta)?),
                Some("max_items") => f.max_items.set(cx, key, count(meta)?),
                Some("rename") => f.rename.set(cx, key, lit_str(meta)?),
                Some("skip") => f.skip.set(cx, key, ()),
                Some("not_sensitive") => f.not_sensitive.set(cx, key, ()),
                _ => return Err(unknown(meta, FIELD_KEYS)),
            }
            Ok(())
        });
        for_each_serde_meta(attrs, |meta| {
            if let Some(lit) = serde_rename(meta, "rename")? {
                field.serde_rename = Some(lit);
            }
            Ok(())
        });
        field
    }
}

impl Variant {
    pub fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut variant = Variant {
            title: Attr::none("title"),
            rename: Attr::none("rename"),
            serde_rename: None,
        };
        for_each_elicit_meta(cx, attrs, |meta| {
            let key = &meta.path;
            if key.is_ident("title") {
                variant.title.set(cx, key, lit_str(meta)?);
            } else if key.is_ident("rename") {
                variant.rename.set(cx, key, lit_str(meta)?);
            } else {
                return Err(unknown(meta, VARIANT_KEYS));
            }
            Ok(())
        });
        for_each_serde_meta(attrs, |meta| {
            if let Some(lit) = serde_rename(meta, "rename")? {
                variant.serde_rename = Some(lit);
            }
            Ok(())
        });
        variant
    }
}

/// The span of an attribute's tokens, or of a fallback.
pub fn span_of(tokens: Option<&TokenStream>, fallback: Span) -> Span {
    tokens
        .and_then(|t| t.clone().into_iter().next())
        .map(|t| t.span())
        .unwrap_or(fallback)
}
