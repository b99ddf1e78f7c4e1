//! The derive input as a form (struct with named fields) or a choice (unit-only enum), with the
//! attributes read and the wire names and titles resolved.

use syn::{Data, DeriveInput, Fields, Ident, Type};

use crate::internals::attr;
use crate::internals::case::title_from_name;
use crate::internals::ctxt::Ctxt;

pub enum Input<'a> {
    Form(Form<'a>),
    Choice(Choice<'a>),
    /// Boxed: its attributes are a whole field's and a container's.
    Newtype(Box<Newtype<'a>>),
}

/// A tuple struct of one field: a field type of its own, with the constraints it declares.
pub struct Newtype<'a> {
    pub input: &'a DeriveInput,
    pub attrs: attr::Newtype,
    /// The type of the one field.
    pub inner: &'a Type,
}

pub struct Form<'a> {
    pub input: &'a DeriveInput,
    pub attrs: attr::Container,
    pub fields: Vec<Field<'a>>,
}

pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub attrs: attr::Field,
    /// The key in `properties` and in `content`.
    pub wire_name: String,
    /// The property's `title`: the one written, else the one made from the field's name, or
    /// none when the field or its form is `untitled`.
    pub title: Option<String>,
    /// Whether the field's type is written as a secret, `Secret<..>` or `Option<Secret<..>>`
    /// (by the last segment of its path, as derives tell an `Option`): such a field passes the
    /// check of secret-looking names, and makes its form one the client is never sent.
    pub secret: bool,
    /// Whether the field broke none of the derive's own rules (set by `check`): only then do
    /// the compiler's checks of its attributes against its type run beside the derive's errors,
    /// so no mistake is reported twice.
    pub clean: bool,
}

pub struct Choice<'a> {
    pub input: &'a DeriveInput,
    pub attrs: attr::Container,
    pub variants: Vec<Variant<'a>>,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub attrs: attr::Variant,
    /// The value sent in `content`.
    pub wire_name: String,
    /// The option's label: the title written, else the one made from the variant's name, or
    /// none when the enum is `untitled`.
    pub title: Option<String>,
}

const SHAPE_HELP: &str = "a form is a struct with named fields, a choice is an enum whose \
                          variants carry no data, and a field type of your own is a tuple struct \
                          of one field";

impl<'a> Input<'a> {
    /// Reads the input; `None` when its shape cannot be derived at all (errors are in `cx`).
    pub fn from_syn(cx: &Ctxt, input: &'a DeriveInput) -> Option<Self> {
        if let Data::Struct(data) = &input.data
            && let Fields::Unnamed(unnamed) = &data.fields
            && unnamed.unnamed.len() == 1
        {
            return Some(Input::Newtype(Box::new(Newtype {
                input,
                attrs: attr::Newtype::from_attrs(cx, &input.attrs),
                inner: &unnamed.unnamed[0].ty,
            })));
        }
        let attrs = attr::Container::from_attrs(cx, &input.attrs);
        match &input.data {
            Data::Struct(data) => match &data.fields {
                Fields::Named(named) => {
                    let fields = named
                        .named
                        .iter()
                        .map(|f| Field::from_syn(cx, f, &attrs))
                        .collect();
                    Some(Input::Form(Form {
                        input,
                        attrs,
                        fields,
                    }))
                }
                Fields::Unnamed(_) => {
                    cx.error_spanned_by(
                        &input.ident,
                        format!("#[derive(Elicit)] cannot be used on a tuple struct of several fields: {SHAPE_HELP}; name the fields so each becomes a form property"),
                    );
                    None
                }
                Fields::Unit => {
                    cx.error_spanned_by(
                        &input.ident,
                        format!("#[derive(Elicit)] cannot be used on a unit struct: {SHAPE_HELP}; a form needs named fields to ask for"),
                    );
                    None
                }
            },
            Data::Enum(data) => {
                let mut variants = Vec::new();
                for variant in &data.variants {
                    if !matches!(variant.fields, Fields::Unit) {
                        cx.error_spanned_by(
                            variant,
                            format!(
                                "#[derive(Elicit)] on an enum needs unit variants only, but `{}` carries data: {SHAPE_HELP}",
                                variant.ident
                            ),
                        );
                        continue;
                    }
                    variants.push(Variant::from_syn(cx, variant, &attrs));
                }
                if data.variants.is_empty() {
                    cx.error_spanned_by(
                        &input.ident,
                        "#[derive(Elicit)] on an enum needs at least one variant to choose from",
                    );
                }
                Some(Input::Choice(Choice {
                    input,
                    attrs,
                    variants,
                }))
            }
            Data::Union(_) => {
                cx.error_spanned_by(
                    &input.ident,
                    format!("#[derive(Elicit)] cannot be used on a union: {SHAPE_HELP}"),
                );
                None
            }
        }
    }
}

/// The wire name: an elicit rename, else serde's, else the container's rule applied to the name.
fn wire_name(
    rename: &attr::Attr<syn::LitStr>,
    serde_rename: &Option<syn::LitStr>,
    by_rule: impl FnOnce() -> String,
) -> String {
    rename
        .get()
        .or(serde_rename.as_ref())
        .map(|lit| lit.value())
        .unwrap_or_else(by_rule)
}

/// The title written, else (unless `untitled` opts out) the one made from the Rust name: a host
/// shows the title as the label, and a wire name is often a machine's (`checkIn`).
fn title(written: &attr::Attr<syn::LitStr>, untitled: bool, rust_name: &str) -> Option<String> {
    match written.get() {
        Some(lit) => Some(lit.value()),
        None if untitled => None,
        None => Some(title_from_name(rust_name)),
    }
}

/// Whether `ty` is written `Secret<..>` or `Option<Secret<..>>`, whatever the path before the
/// last segment (`elicit_mcp::Secret`, a `use`d `Secret`). The derive sees only the tokens: a
/// secret behind an alias or a newtype is caught by the compiler instead (the form's checks
/// refuse it, through the field type's `SECRET`).
pub fn is_secret_type(ty: &Type) -> bool {
    let Some(last) = last_segment(ty) else {
        return false;
    };
    if last.ident == "Secret" {
        return true;
    }
    if last.ident == "Option"
        && let syn::PathArguments::AngleBracketed(args) = &last.arguments
        && let Some(syn::GenericArgument::Type(inner)) = args.args.first()
    {
        return last_segment(inner).is_some_and(|inner| inner.ident == "Secret");
    }
    false
}

/// The last segment of a type's path, looking through parentheses and invisible groups (a
/// type handed in by a `macro_rules!` macro).
fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(path) if path.qself.is_none() => path.path.segments.last(),
        Type::Group(group) => last_segment(&group.elem),
        Type::Paren(paren) => last_segment(&paren.elem),
        _ => None,
    }
}

/// A Rust identifier without its `r#` prefix.
pub fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}

impl<'a> Field<'a> {
    fn from_syn(cx: &Ctxt, field: &'a syn::Field, container: &attr::Container) -> Self {
        let attrs = attr::Field::from_attrs(cx, &field.attrs);
        // `Fields::Named` guarantees an ident.
        let ident = field.ident.as_ref().expect("named field");
        let name = unraw(ident);
        let wire_name = wire_name(&attrs.rename, &attrs.serde_rename, || {
            container
                .rename_rule()
                .map_or(name.clone(), |rule| rule.apply_to_field(&name))
        });
        let untitled = attrs.untitled.is_set() || container.untitled.is_set();
        Field {
            ident,
            ty: &field.ty,
            title: title(&attrs.title, untitled, &name),
            secret: is_secret_type(&field.ty),
            attrs,
            wire_name,
            clean: true,
        }
    }
}

impl<'a> Variant<'a> {
    fn from_syn(cx: &Ctxt, variant: &'a syn::Variant, container: &attr::Container) -> Self {
        let attrs = attr::Variant::from_attrs(cx, &variant.attrs);
        let name = unraw(&variant.ident);
        let wire_name = wire_name(&attrs.rename, &attrs.serde_rename, || {
            container
                .rename_rule()
                .map_or(name.clone(), |rule| rule.apply_to_variant(&name))
        });
        Variant {
            ident: &variant.ident,
            title: title(&attrs.title, container.untitled.is_set(), &name),
            attrs,
            wire_name,
        }
    }
}
