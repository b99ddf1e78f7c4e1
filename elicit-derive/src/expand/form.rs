//! A form (a struct with named fields): its schema as a constant, the `Elicit` impl that reads
//! content against it, and `HasMessage` when it has a message.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::dummy::wrap_in_const;
use crate::expand::bound;
use crate::expand::defaults::defaults;
use crate::expand::dispatch::key_dispatch;
use crate::expand::field::{FieldCode, field_code};
use crate::expand::runtime::{json_schema_impl, runtime_name, runtime_path};
use crate::internals::ast::{Field, Form};
use crate::internals::case;

/// The impls of a form: `FormSchema` (its properties and checks as constants), `Elicit`,
/// `HasMessage` with a message, and `JsonSchema` with the runtime's `schemars` feature.
pub fn expand_form(form: &Form) -> TokenStream {
    let input = form.input;
    let runtime = runtime_path(form.attrs.krate.get());
    let krate = runtime_name();
    let ident = &input.ident;
    let generic = !input.generics.params.is_empty();
    let generics = bound::with_field_bounds(form, &krate);
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

    let defaults = defaults(&krate, form, &asked);
    let defaults_items = &defaults.items;
    let defaults_ty = &defaults.ty;
    let has_message = has_message_impl(&krate, form, &generics);
    let client_form = client_form_impl(&krate, form, &generics);
    let secret_fields = secret_fields(&asked);
    let input_key = input_key(form);
    let schema_fns = schema_fns(&krate, form);
    let read_content = read_content_fn(&krate, form, &asked, &codes);
    let from_content = from_content_fns(&krate);
    let json_schema = json_schema_impl(
        &krate,
        "form",
        ident,
        &impl_generics,
        &ty_generics,
        where_clause,
    );

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

    wrap_in_const(
        &runtime,
        quote! {
            #(#items)*

            #defaults_items

            #[automatically_derived]
            impl #impl_generics __elicit_private::FormSchema for #ident #ty_generics #where_clause {
                const PROPERTIES: &'static [__elicit_private::Property] = &[#(#properties),*];
                const CHECKS: () = { #checks };
                #read_content
            }

            #eager_checks

            #[automatically_derived]
            impl #impl_generics #krate::Elicit for #ident #ty_generics #where_clause {
                const INPUT_KEY: &'static str = #input_key;
                type Defaults = #defaults_ty;
                #secret_fields

                #schema_fns

                #from_content
            }

            #has_message

            #client_form

            #json_schema
        },
    )
}

/// `requested_schema` and `requested_schema_json`. A non-generic form's are statics laid down
/// by const evaluation; a generic form's schema depends on its parameters, so it is built on
/// first use per instantiation and cached.
fn schema_fns(krate: &TokenStream, form: &Form) -> TokenStream {
    let ident = &form.input.ident;
    if !form.input.generics.params.is_empty() {
        return quote! {
            fn requested_schema() -> &'static #krate::schema::RequestedSchema {
                let () = <Self as __elicit_private::FormSchema>::CHECKS;
                __elicit_private::generic_schema::<Self>(|| {
                    __elicit_private::RequestedSchema::from_static(<Self as __elicit_private::FormSchema>::PROPERTIES)
                }).0
            }
            fn requested_schema_json() -> &'static str {
                let () = <Self as __elicit_private::FormSchema>::CHECKS;
                __elicit_private::generic_schema::<Self>(|| {
                    __elicit_private::RequestedSchema::from_static(<Self as __elicit_private::FormSchema>::PROPERTIES)
                }).1
            }
        };
    }
    quote! {
        fn requested_schema() -> &'static #krate::schema::RequestedSchema {
            static SCHEMA: #krate::schema::RequestedSchema = __elicit_private::RequestedSchema::from_static(
                <#ident as __elicit_private::FormSchema>::PROPERTIES,
            );
            &SCHEMA
        }
        fn requested_schema_json() -> &'static str {
            const PROPERTIES: &[__elicit_private::Property] = <#ident as __elicit_private::FormSchema>::PROPERTIES;
            const LEN: usize = __elicit_private::json_len(PROPERTIES);
            const BYTES: [u8; LEN] = __elicit_private::json_bytes::<LEN>(PROPERTIES);
            static JSON: &str = __elicit_private::json_str(&BYTES);
            JSON
        }
    }
}

/// `FormSchema::read_content`: one pass over the content, each asked field's value put in its
/// slot, then each field read from its slot, skipped fields filled from `Default`, and every
/// field at fault reported together. Generic over the content, borrowed or given away, so that
/// `from_content` and `from_content_owned` share one body in the expansion; inlined into each.
fn read_content_fn(
    krate: &TokenStream,
    form: &Form,
    asked: &[&Field],
    codes: &[FieldCode],
) -> TokenStream {
    let slots: Vec<_> = (0..asked.len())
        .map(|i| format_ident!("__slot{}", i))
        .collect();
    let wires: Vec<&str> = asked.iter().map(|f| f.wire_name.as_str()).collect();
    let fill = key_dispatch(&wires, |i| {
        let slot = &slots[i];
        quote!(#slot = __ElicitSome(__value))
    });
    let reads = codes.iter().map(|c| &c.read);
    let build = build_from_reads(form, asked);
    let content = quote!(__elicit_private::Content);
    quote! {
        #[inline(always)]
        fn read_content<__ElicitContent: #content>(
            __content: __ElicitContent,
        ) -> ::core::result::Result<Self, #krate::ContentError> {
            let () = <Self as __elicit_private::FormSchema>::CHECKS;
            // The constant itself rather than the schema built from it, so each field's checks
            // are known when its read is inlined.
            let __properties: &'static [__elicit_private::Property] =
                <Self as __elicit_private::FormSchema>::PROPERTIES;
            // Each slot's type is inferred from the value the loop puts in it.
            #(let mut #slots = __ElicitNone;)*
            // One pass over the content, as serde's visitors do: each known key fills its
            // slot, unknown keys are ignored.
            for (__key, __value) in __content {
                let __key: &str = ::core::convert::AsRef::<str>::as_ref(&__key);
                #fill
            }
            let mut __errors = __elicit_private::Errors::new();
            #(let #slots = #reads;)*
            #build
        }
    }
}

/// `from_content` and `from_content_owned`, both through the form's `read_content`.
fn from_content_fns(krate: &TokenStream) -> TokenStream {
    let value = quote!(__elicit_private::Value);
    let map = quote!(__elicit_private::Map<::std::string::String, #value>);
    quote! {
        fn from_content(__content: &#map) -> ::core::result::Result<Self, #krate::ContentError> {
            <Self as __elicit_private::FormSchema>::read_content(__content)
        }

        fn from_content_owned(__content: #map) -> ::core::result::Result<Self, #krate::ContentError> {
            <Self as __elicit_private::FormSchema>::read_content(__content)
        }
    }
}

/// The form built from its fields' reads (`__slot{i}`, each now an `Option` of the field's
/// value), or the errors collected.
fn build_from_reads(form: &Form, asked: &[&Field]) -> TokenStream {
    let vars: Vec<_> = (0..asked.len())
        .map(|i| format_ident!("__slot{}", i))
        .collect();
    let asked_idents = asked.iter().map(|f| f.ident);
    let skipped: Vec<&Field> = form
        .fields
        .iter()
        .filter(|f| f.attrs.skip.is_set())
        .collect();
    let skipped_idents = skipped.iter().map(|f| f.ident);
    let skipped_tys = skipped.iter().map(|f| f.ty);
    quote! {
        match (#(#vars,)*) {
            (#(__ElicitSome(#vars),)*) => ::core::result::Result::Ok(Self {
                #(#asked_idents: #vars,)*
                #(#skipped_idents: <#skipped_tys as ::core::default::Default>::default(),)*
            }),
            _ => ::core::result::Result::Err(__errors.into_error()),
        }
    }
}

/// The `HasMessage` impl, when the form has a `#[elicit(message)]`.
pub fn has_message_impl(
    krate: &TokenStream,
    form: &Form,
    generics: &syn::Generics,
) -> Option<TokenStream> {
    let ident = &form.input.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let message = form.attrs.message.get()?;
    Some(quote! {
        #[automatically_derived]
        impl #impl_generics #krate::HasMessage for #ident #ty_generics #where_clause {
            const MESSAGE: &'static str = #message;
        }
    })
}

/// The `ClientForm` impl, for a form without a secret field: one the client may be shown. A
/// form with one gets none, so that sending it through the client does not compile.
pub fn client_form_impl(
    krate: &TokenStream,
    form: &Form,
    generics: &syn::Generics,
) -> Option<TokenStream> {
    let asked_secret = form
        .fields
        .iter()
        .any(|f| f.secret && !f.attrs.skip.is_set());
    if asked_secret {
        return None;
    }
    let ident = &form.input.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    Some(quote! {
        #[automatically_derived]
        impl #impl_generics #krate::ClientForm for #ident #ty_generics #where_clause {}
    })
}

/// `SECRET_FIELDS`, the wire names of the asked secret fields in schema order, for a form that
/// has any (the trait's default is empty).
fn secret_fields(asked: &[&Field]) -> Option<TokenStream> {
    let wires: Vec<&str> = asked
        .iter()
        .filter(|f| f.secret)
        .map(|f| f.wire_name.as_str())
        .collect();
    if wires.is_empty() {
        return None;
    }
    Some(quote! {
        const SECRET_FIELDS: &'static [&'static str] = &[#(#wires),*];
    })
}

/// The form's input key: `#[elicit(key = "..")]`, or the type's name in snake case.
pub fn input_key(form: &Form) -> String {
    match form.attrs.key.get() {
        Some(key) => key.value(),
        None => case::type_name_in_snake_case(&form.input.ident.to_string()),
    }
}
