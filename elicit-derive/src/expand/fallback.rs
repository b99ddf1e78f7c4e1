//! What a form with errors expands to besides them, so the compiler goes on and reports the
//! mistakes only it can see (a field type without a mapping, say) in the same build as the
//! derive's own, each once.

use proc_macro2::TokenStream;
use quote::quote;

use crate::dummy::wrap_in_const;
use crate::expand::bound::uses_type_param;
use crate::expand::defaults::defaults;
use crate::expand::form::{client_form_impl, has_message_impl, input_key};
use crate::expand::runtime::{runtime_name, runtime_path};
use crate::expand::typeck::{type_checks, typed_default};
use crate::internals::ast::Form;

/// What a form with errors expands to besides them: `Elicit` (and `HasMessage`, and
/// `ClientForm` for a form without a secret field) implemented
/// with unreachable bodies, and a constant that checks every asked field's type, plus the
/// type-dependent attribute checks of each field that broke none of the derive's own rules
/// (`Field::clean`), so a mistake is never reported by both the derive and the compiler.
pub fn fallback_form(form: &Form) -> TokenStream {
    let input = form.input;
    let runtime = runtime_path(form.attrs.krate.get());
    let krate = runtime_name();
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut checks = TokenStream::new();
    for field in &form.fields {
        if field.attrs.skip.is_set() || uses_type_param(field.ty, &input.generics) {
            continue;
        }
        let ty = field.ty;
        let mut field_checks = quote!(let _ = <#ty as #krate::ElicitField>::OPTIONAL;);
        if field.clean {
            field_checks.extend(type_checks(&krate, field.ty, &field.attrs));
            // In a closure: the constant only type-checks it, and a string default's
            // conversion is not a `const fn`.
            let typed = typed_default(&krate, field);
            field_checks.extend(quote! {
                let _ = || -> ::core::result::Result<(), #krate::Problem> {
                    #typed
                    ::core::result::Result::Ok(())
                };
            });
        }
        checks.extend(quote!(const _: () = { #field_checks };));
    }
    let has_message = has_message_impl(&krate, form, &input.generics);
    let client_form = client_form_impl(&krate, form, &input.generics);
    let input_key = input_key(form);
    // The real defaults type, so that a use of it does not fail a second time.
    let asked: Vec<_> = form
        .fields
        .iter()
        .filter(|f| !f.attrs.skip.is_set())
        .collect();
    let defaults = defaults(&krate, form, &asked);
    let defaults_items = &defaults.items;
    let defaults_ty = &defaults.ty;
    wrap_in_const(
        &runtime,
        quote! {
            #checks

            #defaults_items

            #[automatically_derived]
            impl #impl_generics #krate::Elicit for #ident #ty_generics #where_clause {
                const INPUT_KEY: &'static str = #input_key;
                type Defaults = #defaults_ty;
                fn requested_schema() -> &'static #krate::schema::RequestedSchema {
                    ::core::unreachable!()
                }
                fn requested_schema_json() -> &'static str {
                    ::core::unreachable!()
                }
                fn from_content(
                    _: &__elicit_private::Map<::std::string::String, __elicit_private::Value>,
                ) -> ::core::result::Result<Self, #krate::ContentError> {
                    ::core::unreachable!()
                }
            }

            #has_message

            #client_form
        },
    )
}
