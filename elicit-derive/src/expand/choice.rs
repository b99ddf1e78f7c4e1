//! A choice (a unit-only enum): `ElicitChoice`, and `ElicitValue` so that it is a field type,
//! a single-select, and the item of a multi-select.

use proc_macro2::TokenStream;
use quote::quote;

use crate::dummy::wrap_in_const;
use crate::expand::dispatch::key_dispatch;
use crate::expand::runtime::{json_schema_impl, runtime_name, runtime_path};
use crate::internals::ast::{Choice, Variant};

/// The impls of a choice: `ElicitChoice`, `ElicitValue` and `ElicitField`, `JsonSchema` with
/// the runtime's `schemars` feature, and the hidden `__elicit_wire`.
pub fn expand_choice(choice: &Choice) -> TokenStream {
    let input = choice.input;
    let runtime = runtime_path(choice.attrs.krate.get());
    let krate = runtime_name();
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let idents: Vec<_> = choice.variants.iter().map(|v| v.ident).collect();
    let wires: Vec<&String> = choice.variants.iter().map(|v| &v.wire_name).collect();
    let paths = choice
        .variants
        .iter()
        .map(|v| format!("{ident}::{}", v.ident));
    // Variants with data were reported, and left out; the expansion still has to compile.
    let rest = match &input.data {
        syn::Data::Enum(data) if data.variants.len() > choice.variants.len() => quote!(_ => "",),
        _ => TokenStream::new(),
    };
    // The dispatch the forms' keys get: by length, then a byte, then one comparison.
    let wire_strs: Vec<&str> = wires.iter().map(|w| w.as_str()).collect();
    let from_wire = key_dispatch(&wire_strs, |i| {
        let variant = idents[i];
        quote!(return __ElicitSome(Self::#variant))
    });
    let json_schema = json_schema_impl(
        &krate,
        "choice",
        ident,
        &impl_generics,
        &ty_generics,
        where_clause,
    );
    let titled = match titled_options(choice) {
        Some(labels) => quote! {
            __ElicitSome(&[#(__elicit_private::TitledOption::from_static(#wires, #labels)),*])
        },
        None => quote!(__ElicitNone),
    };

    wrap_in_const(
        &runtime,
        quote! {
            #[automatically_derived]
            impl #impl_generics #krate::ElicitChoice for #ident #ty_generics #where_clause {
                const CHOICES: __elicit_private::Choices = __elicit_private::Choices {
                    values: &[#(__elicit_private::Borrowed(#wires)),*],
                    titled: #titled,
                    paths: &[#(#paths),*],
                };
                fn from_wire(__key: &str) -> ::core::option::Option<Self> {
                    #from_wire
                    __ElicitNone
                }
                fn to_wire(&self) -> &'static str {
                    self.__elicit_wire()
                }
            }

            #[automatically_derived]
            impl #impl_generics #krate::ElicitValue for #ident #ty_generics #where_clause {
                const KIND: __elicit_private::Kind =
                    __elicit_private::Kind::Choice(<Self as #krate::ElicitChoice>::CHOICES);
                type DefaultLiteral = Self;
                fn from_default(__literal: Self) -> ::core::result::Result<Self, #krate::Problem> {
                    ::core::result::Result::Ok(__literal)
                }
                fn from_json(
                    __value: &__elicit_private::Value,
                    __schema: &#krate::schema::PrimitiveSchema,
                    _: ::core::option::Option<&__elicit_private::Matcher>,
                ) -> ::core::result::Result<Self, #krate::Problem> {
                    __elicit_private::choice::<Self>(__value, __schema)
                }
                fn to_json(&self) -> __elicit_private::Value {
                    __elicit_private::Value::from(self.__elicit_wire())
                }
            }

            #krate::__impl_field_for_value!(#ident #ty_generics);

            #json_schema

            // The one inherent function the derive adds, and why: a form's `default = Color::Red`
            // is written into its properties constant, and const evaluation cannot call a trait's
            // `to_wire`. Hidden, and named so that no type's own function meets it.
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
        },
    )
}

/// Each option's label when the choice is a titled select (`oneOf`, `items.anyOf`), or `None`
/// for the plain `enum` form. A choice is titled when a title tells a person more than the
/// value does: some variant has a title written, or a title made from its name that is not
/// its value (`NextDay`, "Next day"). When every title would repeat its value (`Red`, "Red")
/// the plain form shows the same labels in a smaller schema. A titled select needs a label
/// on every option; a variant with none (its enum is `untitled`) shows its value.
fn titled_options<'a>(choice: &'a Choice) -> Option<Vec<&'a str>> {
    let says_more = |v: &Variant| {
        v.attrs.title.is_set() || v.title.as_ref().is_some_and(|title| *title != v.wire_name)
    };
    if !choice.variants.iter().any(says_more) {
        return None;
    }
    let labels = choice
        .variants
        .iter()
        .map(|v| v.title.as_deref().unwrap_or(&v.wire_name));
    Some(labels.collect())
}
