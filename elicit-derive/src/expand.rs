//! Code generation. Everything goes in `const _: () = { ... }` and names the runtime crate's
//! items by full path through its `__private` module, so user names (`struct Result;`, a local
//! `Option`) cannot capture them. Type-dependent facts are left to the compiler: each field's
//! schema comes from `<T as ElicitField>::KIND`, so aliases and foreign types work and a type
//! without a mapping fails with the trait's own message, spanned on the field's type.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Expr};

use crate::ast::{Choice, Field, Form, Input};
use crate::attr::{DefaultKind, NumLit, NumValue, span_of};
use crate::check;
use crate::ctxt::Ctxt;

pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::default();
    let ast = Input::from_syn(&cx, input);
    let clean = match &ast {
        Some(Input::Form(form)) => check::check_form(&cx, form),
        Some(Input::Choice(choice)) => {
            check::check_choice(&cx, choice);
            Vec::new()
        }
        None => Vec::new(),
    };
    let errors = match cx.check() {
        Ok(()) => {
            return match ast {
                Some(Input::Form(form)) => expand_form(&form),
                Some(Input::Choice(choice)) => expand_choice(&choice),
                None => TokenStream::new(),
            };
        }
        Err(errors) => errors.into_compile_error(),
    };
    // Besides the errors, code that lets the compiler go on: the trait impls (so uses of the
    // type do not fail a second time) and, for a form, the checks the compiler makes of its
    // field types, so those errors come in the same build as ours.
    let fallback = match &ast {
        Some(Input::Form(form)) => fallback_form(form, &clean),
        Some(Input::Choice(choice)) => expand_choice(choice),
        None => TokenStream::new(),
    };
    quote!(#errors #fallback)
}

/// What a form with errors expands to besides them: `Elicit` (and `HasMessage`) implemented
/// with unreachable bodies, and a constant that checks every asked field's type, plus the
/// type-dependent attribute checks of each field that broke none of the derive's own rules
/// (`clean`), so a mistake is never reported by both the derive and the compiler.
fn fallback_form(form: &Form, clean: &[bool]) -> TokenStream {
    let input = form.input;
    let krate = runtime_path(form.attrs.krate.get());
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut checks = TokenStream::new();
    for (field, clean) in form.fields.iter().zip(clean) {
        if field.attrs.skip.is_set() || uses_type_param(field.ty, &input.generics) {
            continue;
        }
        let ty = field.ty;
        let mut field_checks = quote!(let _ = <#ty as #krate::ElicitField>::OPTIONAL;);
        if *clean {
            field_checks.extend(type_checks(&krate, field));
            field_checks.extend(typed_default(&krate, field));
        }
        checks.extend(quote!(const _: () = { #field_checks };));
    }
    let (message, has_message) = message_items(&krate, form, &input.generics);
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            #checks

            #[automatically_derived]
            impl #impl_generics #krate::Elicit for #ident #ty_generics #where_clause {
                const MESSAGE: ::core::option::Option<&'static str> = #message;
                fn requested_schema() -> &'static #krate::RequestedSchema {
                    ::core::unreachable!()
                }
                fn requested_schema_json() -> &'static str {
                    ::core::unreachable!()
                }
                fn from_content(
                    _: &#krate::__private::Map<::std::string::String, #krate::__private::Value>,
                ) -> ::core::result::Result<Self, #krate::ContentError> {
                    ::core::unreachable!()
                }
            }

            #has_message
        };
    }
}

/// The `MESSAGE` constant of the `Elicit` impl, and the `HasMessage` impl when the form has a
/// `#[elicit(message)]`.
fn message_items(
    krate: &TokenStream,
    form: &Form,
    generics: &syn::Generics,
) -> (TokenStream, Option<TokenStream>) {
    let ident = &form.input.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    match form.attrs.message.get() {
        Some(m) => (
            quote!(::core::option::Option::Some(#m)),
            Some(quote! {
                #[automatically_derived]
                impl #impl_generics #krate::HasMessage for #ident #ty_generics #where_clause {
                    const MESSAGE: &'static str = #m;
                }
            }),
        ),
        None => (quote!(::core::option::Option::None), None),
    }
}

fn runtime_path(krate: Option<&syn::Path>) -> TokenStream {
    match krate {
        Some(path) => path.to_token_stream(),
        None => quote!(::elicit),
    }
}

fn opt_str(value: Option<String>) -> TokenStream {
    match value {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

fn opt_u64(value: Option<&u64>) -> TokenStream {
    match value {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    }
}

/// A number as the runtime's `Number`: integers exactly, floats with the text `serde_json`
/// prints for them (`zmij` since serde_json 1.0.147; `ryu` before it wrote `1e38` where serde_json
/// now writes `1e+38`), so the const JSON writer needs no float formatting.
fn number(krate: &TokenStream, value: NumValue) -> TokenStream {
    match value {
        NumValue::Int(i) => {
            let i = i64::try_from(i).unwrap_or(if i < 0 { i64::MIN } else { i64::MAX });
            quote!(#krate::__private::Number::from_i64(#i))
        }
        NumValue::Float(f) => {
            let text = zmij::Buffer::new().format_finite(f).to_owned();
            let lit = Literal::f64_suffixed(f);
            quote!(#krate::__private::Number::__from_f64_text(#lit, #text))
        }
    }
}

fn opt_number(krate: &TokenStream, value: Option<&NumLit>) -> TokenStream {
    match value {
        Some(n) => {
            let n = number(krate, n.value);
            quote!(::core::option::Option::Some(#n))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// The generated items of one asked-for field.
struct FieldCode {
    /// The `Property` constant expression.
    property: TokenStream,
    /// Compile-time checks that need the field's type.
    checks: TokenStream,
    /// Block-level items (pattern statics, multi-select default lists).
    items: TokenStream,
    /// The expression that reads the field in `from_content`.
    read: TokenStream,
}

fn field_code(krate: &TokenStream, field: &Field, index: usize) -> FieldCode {
    let ty = field.ty;
    let a = &field.attrs;
    let wire = &field.wire_name;
    let mut items = TokenStream::new();

    let format = match a.format.get().map(|f| f.value()) {
        Some(name) => {
            let variant = format_ident!(
                "{}",
                match name.as_str() {
                    "email" => "Email",
                    "uri" => "Uri",
                    "date" => "Date",
                    _ => "DateTime",
                }
            );
            quote!(::core::option::Option::Some(#krate::__private::StringFormat::#variant))
        }
        None => quote!(::core::option::Option::None),
    };

    let default_value = match a.default.get() {
        None => quote!(#krate::__private::DefaultValue::None),
        Some(default) => {
            let expr = &default.expr;
            match &default.kind {
                DefaultKind::Str(_) => quote!(#krate::__private::DefaultValue::Str(#expr)),
                DefaultKind::Bool(b) => quote!(#krate::__private::DefaultValue::Bool(#b)),
                DefaultKind::Number(value) => {
                    let n = number(krate, *value);
                    quote!(#krate::__private::DefaultValue::Number(#n))
                }
                DefaultKind::Choice => quote_spanned! {expr.span()=>
                    #krate::__private::DefaultValue::Choice((#expr).__elicit_wire())
                },
                DefaultKind::Choices(elems) => {
                    let list = format_ident!("__ELICIT_DEFAULT_{}", index);
                    items.extend(quote! {
                        const #list: &[#krate::__private::Text] = &[
                            #(#krate::__private::Borrowed((#elems).__elicit_wire()),)*
                        ];
                    });
                    quote!(#krate::__private::DefaultValue::Choices(#list))
                }
            }
        }
    };

    let title = opt_str(a.title.get().map(|t| t.value()));
    let description = opt_str(
        a.description
            .get()
            .map(|d| d.value())
            .or_else(|| a.doc.clone()),
    );
    let min_length = opt_u64(a.min_length.get());
    let max_length = opt_u64(a.max_length.get());
    let pattern_text = opt_str(a.pattern.get().map(|p| p.value()));
    let minimum = opt_number(krate, a.minimum.get());
    let maximum = opt_number(krate, a.maximum.get());
    let min_items = opt_u64(a.min_items.get());
    let max_items = opt_u64(a.max_items.get());

    let property = quote_spanned! {ty.span()=>
        #krate::__private::property(
            #wire,
            <#ty as #krate::ElicitField>::OPTIONAL,
            <#ty as #krate::ElicitField>::KIND,
            #krate::__private::Attrs {
                title: #title,
                description: #description,
                min_length: #min_length,
                max_length: #max_length,
                pattern: #pattern_text,
                format: #format,
                minimum: #minimum,
                maximum: #maximum,
                min_items: #min_items,
                max_items: #max_items,
                default: #default_value,
            },
        )
    };

    let checks = type_checks(krate, field);

    // The default is a value of the field's own type: the compiler checks it, here and only here.
    let default_fn = match a.default.get() {
        None => quote!(::core::option::Option::None),
        Some(_) => {
            let typed = typed_default(krate, field);
            quote! {
                ::core::option::Option::Some(
                    (|| { #typed <#ty as #krate::ElicitField>::from_default(__elicit_default) }) as fn() -> #ty
                )
            }
        }
    };

    let pattern = match a.pattern.get() {
        Some(lit) => {
            let name = format_ident!("__ELICIT_PATTERN_{}", index);
            items.extend(quote! {
                static #name: #krate::__private::Pattern =
                    #krate::__private::Pattern::new(#lit, || #krate::__private::Pattern::compile(#lit));
            });
            quote!(::core::option::Option::Some(&#name))
        }
        None => quote!(::core::option::Option::None),
    };

    let read = quote! {
        <#ty as #krate::ElicitField>::__read(slots[#index], &properties[#index], #pattern, #default_fn, &mut errors)
    };
    FieldCode {
        property,
        checks,
        items,
        read,
    }
}

/// `let __elicit_default: <T as ElicitField>::DefaultLiteral = <the default>;`, so a default of
/// the wrong type is a type mismatch on the user's literal, "expected due to" the field's type.
fn typed_default(krate: &TokenStream, field: &Field) -> TokenStream {
    let Some(default) = field.attrs.default.get() else {
        return TokenStream::new();
    };
    let ty = field.ty;
    let literal = default_literal(&default.expr, &default.kind);
    let expected = quote_spanned!(ty.span()=> <#ty as #krate::ElicitField>::DefaultLiteral);
    quote!(let __elicit_default: #expected = #literal;)
}

/// The checks of attributes that only some field types take, for a constant block. Each is
/// spanned on the attribute: a trait projection on the field's type (respanned onto the
/// attribute, so the error points there), or a `panic!` at compile time when a bound or item
/// count does not fit what the type's mapping allows.
fn type_checks(krate: &TokenStream, field: &Field) -> TokenStream {
    let ty = field.ty;
    let a = &field.attrs;
    let mut checks = TokenStream::new();
    let kind = quote!(<#ty as #krate::ElicitField>::KIND);

    let string_attr = [
        a.min_length.tokens(),
        a.max_length.tokens(),
        a.pattern.tokens(),
        a.format.tokens(),
    ];
    if let Some(tokens) = string_attr.into_iter().flatten().next() {
        let span = span_of(Some(tokens), Span::call_site());
        let at = respan(ty.to_token_stream(), span);
        checks.extend(
            quote_spanned!(span=> let () = <#at as #krate::__private::StringField>::PROVEN;),
        );
    }

    if let Some(tokens) = [a.minimum.tokens(), a.maximum.tokens()]
        .into_iter()
        .flatten()
        .next()
    {
        let span = span_of(Some(tokens), Span::call_site());
        let at = respan(ty.to_token_stream(), span);
        checks.extend(
            quote_spanned!(span=> let () = <#at as #krate::__private::NumberField>::PROVEN;),
        );
    }
    for (name, attr) in [("minimum", &a.minimum), ("maximum", &a.maximum)] {
        let Some(bound) = attr.get() else { continue };
        let span = span_of(attr.tokens(), Span::call_site());
        let written = format!("`{name} = {}`", bound.tokens.to_string().replace(' ', ""));
        let not_integer = format!(
            "{written} is not an integer, but the field's type is: write a whole number, or make the field a float"
        );
        let below = format!(
            "{written} is below the smallest value the field's type holds: raise it, or widen the type"
        );
        let above = format!(
            "{written} is above the largest value the field's type holds: lower it, or widen the type"
        );
        let beyond_json = format!(
            "{written} is beyond 2^53 - 1 (or below its negative), past which a JSON number holds no exact integer: integer fields of 64 bits and more are bounded there"
        );
        let value = number(krate, bound.value);
        let misfit = quote!(#krate::__private::BoundMisfit);
        checks.extend(quote_spanned! {span=>
            match #krate::__private::bound_misfit(#kind, ::core::option::Option::Some(#value)) {
                ::core::option::Option::Some(#misfit::NotAnInteger) => ::core::panic!(#not_integer),
                ::core::option::Option::Some(#misfit::BelowType) => ::core::panic!(#below),
                ::core::option::Option::Some(#misfit::AboveType) => ::core::panic!(#above),
                ::core::option::Option::Some(#misfit::BeyondJson) => ::core::panic!(#beyond_json),
                ::core::option::Option::None => {}
            }
        });
    }

    if let Some(tokens) = [a.min_items.tokens(), a.max_items.tokens()]
        .into_iter()
        .flatten()
        .next()
    {
        let span = span_of(Some(tokens), Span::call_site());
        let at = respan(ty.to_token_stream(), span);
        checks.extend(
            quote_spanned!(span=> let () = <#at as #krate::__private::MultiSelectField>::PROVEN;),
        );
    }
    if let Some(min) = a.min_items.get() {
        let span = span_of(a.min_items.tokens(), Span::call_site());
        let message = format!(
            "`min_items = {min}` is more than the number of choices of the field's enum, so no selection would be accepted: lower it, or add variants"
        );
        checks.extend(quote_spanned! {span=>
            if #krate::__private::more_items_than_choices(#kind, #min) {
                ::core::panic!(#message);
            }
        });
    }
    checks
}

/// The tokens with every span set to `span`, so that an error about them points there.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let proc_macro2::TokenTree::Group(group) = &token {
                let mut inner =
                    proc_macro2::Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                token = proc_macro2::TokenTree::Group(inner);
            } else {
                token.set_span(span);
            }
            token
        })
        .collect()
}

/// Whether `ty` names one of the type or const parameters of `generics`.
fn uses_type_param(ty: &syn::Type, generics: &syn::Generics) -> bool {
    let params: Vec<&proc_macro2::Ident> = generics
        .params
        .iter()
        .filter_map(|param| match param {
            syn::GenericParam::Type(t) => Some(&t.ident),
            syn::GenericParam::Const(c) => Some(&c.ident),
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect();
    fn visit(tokens: TokenStream, params: &[&proc_macro2::Ident]) -> bool {
        tokens.into_iter().any(|token| match token {
            proc_macro2::TokenTree::Ident(ident) => params.contains(&&ident),
            proc_macro2::TokenTree::Group(group) => visit(group.stream(), params),
            _ => false,
        })
    }
    visit(ty.to_token_stream(), &params)
}

/// The default as a `DefaultLiteral`: multi-select arrays become `&'static` slices.
fn default_literal(expr: &Expr, kind: &DefaultKind) -> TokenStream {
    match kind {
        DefaultKind::Choices(elems) => quote_spanned!(expr.span()=> &[#(#elems),*]),
        _ => expr.to_token_stream(),
    }
}

fn expand_form(form: &Form) -> TokenStream {
    let input = form.input;
    let krate = runtime_path(form.attrs.krate.get());
    let ident = &input.ident;
    let generic = !input.generics.params.is_empty();
    let mut generics = input.generics.clone();
    if generic {
        let where_clause = generics.make_where_clause();
        // Only types that use a parameter: a bound on a concrete type would be checked as a
        // trivial bound, a second and noisier error for a type already reported at its field.
        for field in form
            .fields
            .iter()
            .filter(|f| !f.attrs.skip.is_set() && uses_type_param(f.ty, &input.generics))
        {
            let ty = field.ty;
            where_clause
                .predicates
                .push(syn::parse_quote!(#ty: #krate::ElicitField));
        }
        where_clause
            .predicates
            .push(syn::parse_quote!(Self: 'static));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();

    let asked: Vec<&Field> = form
        .fields
        .iter()
        .filter(|f| !f.attrs.skip.is_set())
        .collect();
    let codes: Vec<FieldCode> = asked
        .iter()
        .enumerate()
        .map(|(i, f)| field_code(&krate, f, i))
        .collect();
    let properties = codes.iter().map(|c| &c.property);
    let checks = codes.iter().map(|c| &c.checks);
    let items = codes.iter().map(|c| &c.items);
    let reads = codes.iter().map(|c| &c.read);
    let vars: Vec<_> = (0..asked.len())
        .map(|i| format_ident!("__field{}", i))
        .collect();
    let asked_idents = asked.iter().map(|f| f.ident);
    let count = asked.len();
    let wires = asked.iter().map(|f| &f.wire_name);
    let indices = 0..asked.len();
    let skipped_idents = form
        .fields
        .iter()
        .filter(|f| f.attrs.skip.is_set())
        .map(|f| f.ident);
    let skipped_tys = form
        .fields
        .iter()
        .filter(|f| f.attrs.skip.is_set())
        .map(|f| f.ty);

    let (message, has_message) = message_items(&krate, form, &generics);

    let json_schema = json_schema_impl(
        &krate,
        "form",
        ident,
        &impl_generics,
        &ty_generics,
        where_clause,
    );

    let schema_fns = if generic {
        quote! {
            fn requested_schema() -> &'static #krate::RequestedSchema {
                let () = <Self as #krate::__private::FormSchema>::CHECKS;
                #krate::__private::generic_schema::<Self>(|| {
                    #krate::__private::RequestedSchema::from_static(<Self as #krate::__private::FormSchema>::PROPERTIES)
                }).0
            }
            fn requested_schema_json() -> &'static str {
                let () = <Self as #krate::__private::FormSchema>::CHECKS;
                #krate::__private::generic_schema::<Self>(|| {
                    #krate::__private::RequestedSchema::from_static(<Self as #krate::__private::FormSchema>::PROPERTIES)
                }).1
            }
        }
    } else {
        quote! {
            fn requested_schema() -> &'static #krate::RequestedSchema {
                static SCHEMA: #krate::RequestedSchema = #krate::__private::RequestedSchema::from_static(
                    <#ident as #krate::__private::FormSchema>::PROPERTIES,
                );
                &SCHEMA
            }
            fn requested_schema_json() -> &'static str {
                const PROPERTIES: &[#krate::__private::Property] = <#ident as #krate::__private::FormSchema>::PROPERTIES;
                const LEN: usize = #krate::__private::json_len(PROPERTIES);
                const BYTES: [u8; LEN] = #krate::__private::json_bytes::<LEN>(PROPERTIES);
                static JSON: &str = #krate::__private::json_str(&BYTES);
                JSON
            }
        }
    };
    // A non-generic form runs its checks in a constant of its own, so a failing one is reported
    // at the attribute alone; a generic form's depend on the parameters and run per use.
    // Each field's in a constant of its own: the compiler does not evaluate a constant whose
    // body has a type error, so one field's mistake would hide another's.
    let (eager_checks, checks) = if generic {
        (None, quote!(#(#checks)*))
    } else {
        (
            Some(quote!(#(const _: () = { #checks };)*)),
            TokenStream::new(),
        )
    };

    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            #(#items)*

            #[automatically_derived]
            impl #impl_generics #krate::__private::FormSchema for #ident #ty_generics #where_clause {
                const PROPERTIES: &'static [#krate::__private::Property] = &[#(#properties),*];
                const CHECKS: () = { #checks };
            }

            #eager_checks

            #[automatically_derived]
            impl #impl_generics #krate::Elicit for #ident #ty_generics #where_clause {
                const MESSAGE: ::core::option::Option<&'static str> = #message;

                #schema_fns

                fn from_content(
                    content: &#krate::__private::Map<::std::string::String, #krate::__private::Value>,
                ) -> ::core::result::Result<Self, #krate::ContentError> {
                    let properties: &'static [#krate::__private::Property] =
                        &<Self as #krate::Elicit>::requested_schema().properties;
                    // One pass over the content, as serde's visitors do: each known key fills
                    // its slot, unknown keys are ignored.
                    let mut slots: [::core::option::Option<&#krate::__private::Value>; #count] =
                        [::core::option::Option::None; #count];
                    for (key, value) in content {
                        match key.as_str() {
                            #(#wires => slots[#indices] = ::core::option::Option::Some(value),)*
                            _ => {}
                        }
                    }
                    let mut errors = #krate::__private::Errors::new();
                    #(let #vars = #reads;)*
                    match (#(#vars,)*) {
                        (#(::core::option::Option::Some(#vars),)*) => ::core::result::Result::Ok(Self {
                            #(#asked_idents: #vars,)*
                            #(#skipped_idents: <#skipped_tys as ::core::default::Default>::default(),)*
                        }),
                        _ => ::core::result::Result::Err(errors.into_error()),
                    }
                }
            }

            #has_message

            #json_schema
        };
    }
}

fn expand_choice(choice: &Choice) -> TokenStream {
    let input = choice.input;
    let krate = runtime_path(choice.attrs.krate.get());
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let idents: Vec<_> = choice.variants.iter().map(|v| v.ident).collect();
    let wires: Vec<&String> = choice.variants.iter().map(|v| &v.wire_name).collect();
    // Variants with data were reported, and left out; the expansion still has to compile.
    let rest = match &input.data {
        syn::Data::Enum(data) if data.variants.len() > choice.variants.len() => quote!(_ => "",),
        _ => TokenStream::new(),
    };
    let json_schema = json_schema_impl(
        &krate,
        "choice",
        ident,
        &impl_generics,
        &ty_generics,
        where_clause,
    );
    let any_titled = choice.variants.iter().any(|v| v.attrs.title.is_set());
    let titled = if any_titled {
        // A titled select needs a title on every option; a variant without one shows its value.
        let titles = choice.variants.iter().map(|v| {
            v.attrs
                .title
                .get()
                .map_or(v.wire_name.clone(), |t| t.value())
        });
        quote! {
            ::core::option::Option::Some(&[#(#krate::__private::TitledOption {
                value: #krate::__private::Borrowed(#wires),
                title: #krate::__private::Borrowed(#titles),
            }),*])
        }
    } else {
        quote!(::core::option::Option::None)
    };

    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #krate::ElicitChoice for #ident #ty_generics #where_clause {
                const CHOICES: #krate::__private::Choices = #krate::__private::Choices {
                    values: &[#(#krate::__private::Borrowed(#wires)),*],
                    titled: #titled,
                };
                // Duplicate wire names are a derive error, expanded anyway to keep the compiler going.
                #[allow(unreachable_patterns)]
                fn from_wire(value: &str) -> ::core::option::Option<Self> {
                    match value {
                        #(#wires => ::core::option::Option::Some(Self::#idents),)*
                        _ => ::core::option::Option::None,
                    }
                }
                fn to_wire(&self) -> &'static str {
                    self.__elicit_wire()
                }
            }

            #[automatically_derived]
            impl #impl_generics #krate::ElicitValue for #ident #ty_generics #where_clause {
                const KIND: #krate::__private::Kind =
                    #krate::__private::Kind::Choice(<Self as #krate::ElicitChoice>::CHOICES);
                type DefaultLiteral = Self;
                fn from_default(literal: Self) -> Self {
                    literal
                }
                fn from_json(
                    value: &#krate::__private::Value,
                    schema: &#krate::schema::PrimitiveSchema,
                    _: ::core::option::Option<&#krate::__private::Regex>,
                ) -> ::core::result::Result<Self, #krate::Problem> {
                    #krate::__private::choice::<Self>(value, schema)
                }
            }

            #krate::__impl_field_for_value!(#ident #ty_generics);

            #json_schema

            #[automatically_derived]
            impl #impl_generics #ident #ty_generics #where_clause {
                #[doc(hidden)]
                pub const fn __elicit_wire(&self) -> &'static str {
                    match *self {
                        #(Self::#idents => #wires,)*
                        #rest
                    }
                }
            }
        };
    }
}

/// The `schemars::JsonSchema` impl, through the runtime crate's macro: only the runtime crate
/// knows whether its `schemars` feature is on, so the macro expands to nothing when it is off.
fn json_schema_impl(
    krate: &TokenStream,
    kind: &str,
    ident: &syn::Ident,
    impl_generics: &syn::ImplGenerics<'_>,
    ty_generics: &syn::TypeGenerics<'_>,
    where_clause: Option<&syn::WhereClause>,
) -> TokenStream {
    let kind = format_ident!("{}", kind);
    let name = syn::ext::IdentExt::unraw(ident).to_string();
    quote! {
        #krate::__impl_json_schema!(#kind, #name, [#impl_generics], #ident #ty_generics, [#where_clause]);
    }
}
