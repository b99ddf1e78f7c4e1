//! Code generation. Everything goes in `const _: () = { ... }` and names the runtime crate's
//! items by full path through its `__private` module, so user names (`struct Result;`, a local
//! `Option`) cannot capture them. Type-dependent facts are left to the compiler: each field's
//! schema comes from `<T as ElicitField>::KIND`, so aliases and foreign types work and a type
//! without a mapping fails with the trait's own message, spanned on the field's type.

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote};
use syn::DeriveInput;

use crate::ast::{Choice, Field, Form, Input};
use crate::bound;
use crate::case;
use crate::check;
use crate::ctxt::Ctxt;
use crate::fallback;
use crate::field::{FieldCode, field_code};
use crate::newtype;

pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let mut ast = Input::from_syn(&cx, input);
    match &mut ast {
        Some(Input::Form(form)) => check::check_form(&cx, form),
        Some(Input::Choice(choice)) => check::check_choice(&cx, choice),
        Some(Input::Newtype(newtype)) => check::check_newtype(&cx, newtype),
        None => {}
    }
    let errors = match cx.check() {
        Ok(()) => {
            return match ast {
                Some(Input::Form(form)) => expand_form(&form),
                Some(Input::Choice(choice)) => expand_choice(&choice),
                Some(Input::Newtype(newtype)) => newtype::expand_newtype(&newtype, true),
                None => TokenStream::new(),
            };
        }
        Err(errors) => errors.into_compile_error(),
    };
    // Besides the errors, code that lets the compiler go on: the trait impls (so uses of the
    // type do not fail a second time) and, for a form, the checks the compiler makes of its
    // field types, so those errors come in the same build as ours.
    let fallback = match &ast {
        Some(Input::Form(form)) => fallback::fallback_form(form),
        Some(Input::Choice(choice)) => expand_choice(choice),
        Some(Input::Newtype(newtype)) => newtype::expand_newtype(newtype, false),
        None => TokenStream::new(),
    };
    quote!(#errors #fallback)
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

/// The form's input key: `#[elicit(key = "..")]`, or the type's name in snake case.
pub fn input_key(form: &Form) -> String {
    match form.attrs.key.get() {
        Some(key) => key.value(),
        None => case::type_name_in_snake_case(&form.input.ident.to_string()),
    }
}

pub fn runtime_path(krate: Option<&syn::Path>) -> TokenStream {
    match krate {
        Some(path) => path.to_token_stream(),
        None => quote!(::elicit_mcp),
    }
}

fn expand_form(form: &Form) -> TokenStream {
    let input = form.input;
    let krate = runtime_path(form.attrs.krate.get());
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

    let has_message = has_message_impl(&krate, form, &generics);
    let input_key = input_key(form);

    let json_schema = json_schema_impl(
        &krate,
        "form",
        ident,
        &impl_generics,
        &ty_generics,
        where_clause,
    );

    let inherent = if generic {
        generic_inherent_fns(&krate, form)
    } else {
        TokenStream::new()
    };

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
                const INPUT_KEY: &'static str = #input_key;

                #schema_fns

                fn from_content(
                    __content: &#krate::__private::Map<::std::string::String, #krate::__private::Value>,
                ) -> ::core::result::Result<Self, #krate::ContentError> {
                    // The constant itself rather than the schema built from it, so each
                    // field's checks are known when its read is inlined.
                    let () = <Self as #krate::__private::FormSchema>::CHECKS;
                    let __properties: &'static [#krate::__private::Property] =
                        <Self as #krate::__private::FormSchema>::PROPERTIES;
                    // One pass over the content, as serde's visitors do: each known key fills
                    // its slot, unknown keys are ignored.
                    let mut __slots: [::core::option::Option<&#krate::__private::Value>; #count] =
                        [::core::option::Option::None; #count];
                    for (__key, __value) in __content {
                        match __key.as_str() {
                            #(#wires => __slots[#indices] = ::core::option::Option::Some(__value),)*
                            _ => {}
                        }
                    }
                    let mut __errors = #krate::__private::Errors::new();
                    #(let #vars = #reads;)*
                    match (#(#vars,)*) {
                        (#(::core::option::Option::Some(#vars),)*) => ::core::result::Result::Ok(Self {
                            #(#asked_idents: #vars,)*
                            #(#skipped_idents: <#skipped_tys as ::core::default::Default>::default(),)*
                        }),
                        _ => ::core::result::Result::Err(__errors.into_error()),
                    }
                }
            }

            #has_message

            #inherent

            #json_schema
        };
    }
}

/// For a generic form, the `Elicit` functions again as inherent functions bounded by
/// `Self: Elicit`. Without them, `Wrapper::<Address>::requested_schema()` with an unmapped
/// `Address` is a bare "function exists but its trait bounds were not satisfied" (E0599); with
/// them the call names the unmet bound, and the compiler reports it with the field-mapping
/// trait's own message, as everywhere else.
fn generic_inherent_fns(krate: &TokenStream, form: &Form) -> TokenStream {
    let ident = &form.input.ident;
    let (impl_generics, ty_generics, where_clause) = form.input.generics.split_for_impl();
    let elicit = quote!(#krate::Elicit);
    quote! {
        #[automatically_derived]
        #[allow(dead_code)]
        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc(hidden)]
            pub fn requested_schema() -> &'static #krate::RequestedSchema
            where
                Self: #elicit,
            {
                <Self as #elicit>::requested_schema()
            }
            #[doc(hidden)]
            pub fn requested_schema_json() -> &'static str
            where
                Self: #elicit,
            {
                <Self as #elicit>::requested_schema_json()
            }
            #[doc(hidden)]
            pub fn from_content(
                __content: &#krate::__private::Map<::std::string::String, #krate::__private::Value>,
            ) -> ::core::result::Result<Self, #krate::ContentError>
            where
                Self: #elicit,
            {
                <Self as #elicit>::from_content(__content)
            }
            #[doc(hidden)]
            pub fn from_result(
                __result: &#krate::ElicitResult,
            ) -> ::core::result::Result<#krate::ElicitOutcome<Self>, #krate::ContentError>
            where
                Self: #elicit,
            {
                <Self as #elicit>::from_result(__result)
            }
        }
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
            ::core::option::Option::Some(&[#(#krate::__private::TitledOption::from_static(#wires, #titles)),*])
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
                fn from_wire(__value: &str) -> ::core::option::Option<Self> {
                    match __value {
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
                fn from_default(__literal: Self) -> ::core::result::Result<Self, #krate::Problem> {
                    ::core::result::Result::Ok(__literal)
                }
                fn from_json(
                    __value: &#krate::__private::Value,
                    __schema: &#krate::schema::PrimitiveSchema,
                    _: ::core::option::Option<&#krate::__private::Regex>,
                ) -> ::core::result::Result<Self, #krate::Problem> {
                    #krate::__private::choice::<Self>(__value, __schema)
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
pub fn json_schema_impl(
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
