//! Reads `#[elicit(..)]` (and the `rename`/`rename_all` of `#[serde(..)]`) by hand with syn's
//! `parse_nested_meta`. Every problem is recorded in the context and reading goes on, so one
//! compile shows all of them.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, ExprLit, ExprUnary, Lit, LitInt, LitStr, UnOp};

use crate::internals::case::RenameRule;
use crate::internals::ctxt::Ctxt;

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

/// A field's `default = ..`: the expression as written, and what it is.
pub struct DefaultValue {
    pub expr: Expr,
    pub kind: DefaultKind,
}

/// Declares the `#[elicit(..)]` keys of one place (container, field, variant) in one table:
/// each row is the key as written, the member it fills, its value type and how that value is
/// read. The struct, its empty value, the list of keys in the "unknown attribute" error, the
/// dispatch of a key to its reader and the list of keys set all come from the table.
macro_rules! elicit_keys {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($key:literal => $member:ident: $ty:ty = $read:expr,)*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $(pub $member: Attr<$ty>,)*
        }

        impl $name {
            /// Every key, as listed in the error for an unknown one.
            const KEYS: &'static str = concat!($($key, ", ",)*);

            fn empty() -> Self {
                $name { $($member: Attr::none($key),)* }
            }

            /// Reads `meta` into its member; an error when the key is not in the table.
            fn read(&mut self, cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<()> {
                let key = &meta.path;
                $(if key.is_ident($key) {
                    let value = ($read)(meta)?;
                    self.$member.set(cx, key, value);
                    return Ok(());
                })*
                Err(unknown(meta, Self::KEYS.trim_end_matches(", ")))
            }

            /// The keys that were written, each with its tokens.
            // A container's and a variant's keys have no rule that needs them all.
            #[allow(dead_code)]
            pub fn set_keys(&self) -> Vec<(&'static str, &TokenStream)> {
                let mut set = Vec::new();
                $(if let Some(tokens) = self.$member.tokens() {
                    set.push(($key, tokens));
                })*
                set
            }
        }
    };
}

elicit_keys! {
    /// The `#[elicit(..)]` keys of a struct or an enum.
    pub struct ContainerKeys {
        "message" => message: LitStr = lit_str,
        "key" => key: LitStr = lit_str,
        "rename_all" => rename_all: RenameRule = |meta: &ParseNestedMeta| RenameRule::from_lit(&lit_str(meta)?),
        "untitled" => untitled: () = flag,
        "crate" => krate: syn::Path = |meta: &ParseNestedMeta| lit_str(meta)?.parse::<syn::Path>(),
    }
}

elicit_keys! {
    /// The `#[elicit(..)]` keys of a form's field.
    pub struct FieldKeys {
        "title" => title: LitStr = lit_str,
        "untitled" => untitled: () = flag,
        "description" => description: LitStr = lit_str,
        "default" => default: DefaultValue = default_value,
        "format" => format: LitStr = lit_str,
        "min_length" => min_length: u64 = count,
        "max_length" => max_length: u64 = count,
        "pattern" => pattern: LitStr = lit_str,
        "minimum" => minimum: NumLit = num_lit,
        "maximum" => maximum: NumLit = num_lit,
        "min_items" => min_items: u64 = count,
        "max_items" => max_items: u64 = count,
        "rename" => rename: LitStr = lit_str,
        "skip" => skip: () = flag,
        "not_sensitive" => not_sensitive: () = flag,
    }
}

elicit_keys! {
    /// The `#[elicit(..)]` keys of a choice enum's variant.
    pub struct VariantKeys {
        "title" => title: LitStr = lit_str,
        "rename" => rename: LitStr = lit_str,
    }
}

/// The kinds of field that some attributes are limited to.
#[derive(Clone, Copy)]
pub enum FieldKind {
    String,
    Number,
    MultiSelect,
}

impl FieldKind {
    /// How an error names a field of this kind: "for a string field".
    pub fn article_name(self) -> &'static str {
        match self {
            FieldKind::String => "a string",
            FieldKind::Number => "a number",
            FieldKind::MultiSelect => "a multi-select",
        }
    }
}

impl FieldKeys {
    /// For each kind of field, the first attribute set that only that kind takes.
    pub fn kind_limited(&self) -> [(FieldKind, Option<&TokenStream>); 3] {
        [
            (
                FieldKind::String,
                first(&[
                    self.min_length.tokens(),
                    self.max_length.tokens(),
                    self.pattern.tokens(),
                    self.format.tokens(),
                ]),
            ),
            (
                FieldKind::Number,
                first(&[self.minimum.tokens(), self.maximum.tokens()]),
            ),
            (
                FieldKind::MultiSelect,
                first(&[self.min_items.tokens(), self.max_items.tokens()]),
            ),
        ]
    }
}

fn first<'a>(attrs: &[Option<&'a TokenStream>]) -> Option<&'a TokenStream> {
    attrs.iter().flatten().next().copied()
}

/// A struct's or enum's attributes.
pub struct Container {
    pub keys: ContainerKeys,
    pub serde_rename_all: Option<(LitStr, RenameRule)>,
}

/// A field's attributes.
pub struct Field {
    pub keys: FieldKeys,
    pub serde_rename: Option<LitStr>,
    pub doc: Option<String>,
}

/// A variant's attributes.
pub struct Variant {
    pub keys: VariantKeys,
    pub serde_rename: Option<LitStr>,
}

impl std::ops::Deref for Container {
    type Target = ContainerKeys;
    fn deref(&self) -> &ContainerKeys {
        &self.keys
    }
}

impl std::ops::Deref for Field {
    type Target = FieldKeys;
    fn deref(&self) -> &FieldKeys {
        &self.keys
    }
}

impl std::ops::Deref for Variant {
    type Target = VariantKeys;
    fn deref(&self) -> &VariantKeys {
        &self.keys
    }
}

/// Runs `each` on every item of every `#[elicit(..)]` attribute, recording parse errors.
fn for_each_elicit_meta(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut each: impl FnMut(&ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("elicit")) {
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

/// A key that takes no value, such as `skip`: being written is all it says.
fn flag(_: &ParseNestedMeta) -> syn::Result<()> {
    Ok(())
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

/// Why a `default` written as a path is refused where it cannot name a choice enum's variant.
pub const PATH_DEFAULT_IS_NOT_A_VARIANT: &str = "a `default` written as a path must name a variant of the field's choice enum, such as \
     `Color::Red`; for a string, number or bool field write the value as a literal (constants \
     are not supported)";

fn default_value(meta: &ParseNestedMeta) -> syn::Result<DefaultValue> {
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
                PATH_DEFAULT_IS_NOT_A_VARIANT,
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
    Ok(DefaultValue { expr, kind })
}

/// Whether a path can be `Enum::Variant`: two segments or more, not starting with a primitive
/// type, `String` or the standard library (whose constants, `u8::MAX` or `std::u8::MAX`, are
/// values of no choice enum).
fn names_a_variant(path: &syn::Path) -> bool {
    const STD: &[&str] = &["std", "core", "alloc"];
    let first = path.segments.first().map(|s| s.ident.to_string());
    path.segments.len() >= 2
        && !first.is_some_and(|first| {
            PLAIN_TYPES.contains(&first.as_str()) || STD.contains(&first.as_str())
        })
}

/// The primitive types and `String`: types that are no choice enum, by their name alone.
pub const PLAIN_TYPES: &[&str] = &[
    "bool", "char", "str", "String", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16",
    "i32", "i64", "i128", "isize", "f32", "f64",
];

/// Reads the `rename`/`rename_all` of `#[serde(..)]`, ignoring serde's other keys.
fn for_each_serde_meta(
    attrs: &[Attribute],
    mut each: impl FnMut(&ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
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
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("doc")) {
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
        let mut keys = ContainerKeys::empty();
        for_each_elicit_meta(cx, attrs, |meta| keys.read(cx, meta));
        let mut serde_rename_all = None;
        for_each_serde_meta(attrs, |meta| {
            if let Some(lit) = serde_rename(meta, "rename_all")?
                && let Ok(rule) = RenameRule::from_lit(&lit)
            {
                serde_rename_all = Some((lit, rule));
            }
            Ok(())
        });
        Container {
            keys,
            serde_rename_all,
        }
    }
}

impl Field {
    pub fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut keys = FieldKeys::empty();
        for_each_elicit_meta(cx, attrs, |meta| keys.read(cx, meta));
        Field {
            keys,
            serde_rename: serde_rename_of(attrs),
            doc: doc_comment(attrs),
        }
    }
}

impl Variant {
    pub fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut keys = VariantKeys::empty();
        for_each_elicit_meta(cx, attrs, |meta| keys.read(cx, meta));
        Variant {
            keys,
            serde_rename: serde_rename_of(attrs),
        }
    }
}

/// A newtype's attributes: the constraints it declares, read with the field table (a newtype
/// narrows its field's property as a field's attributes do), and the container's keys.
pub struct Newtype {
    pub container: ContainerKeys,
    pub keys: FieldKeys,
}

impl Newtype {
    pub fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut container = ContainerKeys::empty();
        let mut keys = FieldKeys::empty();
        for_each_elicit_meta(cx, attrs, |meta| {
            let for_container = ["crate", "message", "key", "rename_all"]
                .iter()
                .any(|key| meta.path.is_ident(key));
            if for_container {
                container.read(cx, meta)
            } else {
                keys.read(cx, meta)
            }
        });
        Newtype { container, keys }
    }
}

/// The name of `#[serde(rename = "..")]` (or its `deserialize` half) on a field or variant.
fn serde_rename_of(attrs: &[Attribute]) -> Option<LitStr> {
    let mut found = None;
    for_each_serde_meta(attrs, |meta| {
        if let Some(lit) = serde_rename(meta, "rename")? {
            found = Some(lit);
        }
        Ok(())
    });
    found
}

/// The span of an attribute's tokens, or of a fallback.
pub fn span_of(tokens: Option<&TokenStream>, fallback: Span) -> Span {
    tokens
        .and_then(|t| t.clone().into_iter().next())
        .map(|t| t.span())
        .unwrap_or(fallback)
}
