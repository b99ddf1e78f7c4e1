//! A form's run-time defaults: a struct of the derive's own with one `FormDefault` per asked
//! field, so that naming a field the form does not have, or giving a value of another type, is a
//! compile error at the user's call; and its `FormDefaults` impl, which gives the wire map the
//! runtime checks.
//!
//! Each field is a `FormDefault<T>` of the field's type `T` itself, which asks nothing of `T`:
//! only setting a value needs its mapping, so a field type without one is reported where the
//! derive's other uses of it report it, once, and the struct adds no error of its own.

use std::collections::HashSet;

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote};

use crate::internals::ast::{Field, Form, unraw};

/// The defaults type's items, for the form's `const _`, and the type the `Elicit` impl names as
/// its `Defaults`.
pub struct Defaults {
    pub items: TokenStream,
    pub ty: TokenStream,
}

/// The defaults of `form`, whose asked fields are `asked`: `struct {Form}Defaults`, named so
/// that rustc's errors at the user's call read well (``no field `chek_in` on type
/// `&mut StayDefaults` ``), and renamed away from any name the input writes, which the struct
/// would shadow inside the `const _`.
pub fn defaults(krate: &TokenStream, form: &Form, asked: &[&Field]) -> Defaults {
    let input = form.input;
    let form_ident = &input.ident;
    let written = idents_of(input.to_token_stream());
    let name = unused(&written, format!("{}Defaults", unraw(form_ident)), "__", "");
    let ident = Ident::new(&name, form_ident.span());
    // The form's own generics and where-clause: the phantom field names the form.
    let generics = &input.generics;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let params = &generics.params;

    let idents: Vec<&Ident> = asked.iter().map(|f| f.ident).collect();
    let tys = asked.iter().map(|f| f.ty);
    let wires = asked.iter().map(|f| f.wire_name.as_str());
    let field_docs = asked.iter().map(|f| {
        format!(
            "The default of `{}` (`\"{}\"` on the wire).",
            unraw(f.ident),
            f.wire_name
        )
    });

    // A parameter only a skipped field uses would be unused in the defaults: the form's own
    // type, in a field the user never names, uses them all.
    let phantom = (!generics.params.is_empty()).then(|| {
        let field_names: HashSet<String> = form.fields.iter().map(|f| unraw(f.ident)).collect();
        format_ident!(
            "{}",
            unused(&field_names, "__elicit_form".to_owned(), "", "_")
        )
    });
    let phantom_field = phantom
        .as_ref()
        .map(|name| quote!(#name: ::core::marker::PhantomData<fn() -> #form_ident #ty_generics>,));
    let phantom_value = phantom
        .as_ref()
        .map(|name| quote!(#name: ::core::marker::PhantomData,));

    let doc = format!(
        "The run-time defaults of the form `{form}`, one per asked field: fill them with \
         `elicit_mcp::defaults_of::<{form}>(|d| ..)`.",
        form = unraw(form_ident),
    );
    let map = quote!(__elicit_private::Map<::std::string::String, __elicit_private::Value>);
    let items = quote! {
        #[doc = #doc]
        // Its fields are named as the form's, whose names the form's own lint settings judge.
        #[allow(non_snake_case)]
        pub struct #ident <#params> #where_clause {
            #(
                #[doc = #field_docs]
                pub #idents: #krate::FormDefault<#tys>,
            )*
            #phantom_field
        }

        #[automatically_derived]
        impl #impl_generics ::core::default::Default for #ident #ty_generics #where_clause {
            fn default() -> Self {
                #ident {
                    #(#idents: #krate::FormDefault::new(),)*
                    #phantom_value
                }
            }
        }

        #[automatically_derived]
        impl #impl_generics #krate::FormDefaults for #ident #ty_generics #where_clause {
            fn to_wire(&self) -> #map {
                let mut __map = __elicit_private::Map::new();
                #(__elicit_private::put_default(&mut __map, #wires, &self.#idents);)*
                __map
            }
        }
    };
    Defaults {
        items,
        ty: quote!(#ident #ty_generics),
    }
}

/// `name`, or with `prefix` before and `suffix` after it as often as needed for a name not in
/// `taken`.
fn unused(taken: &HashSet<String>, mut name: String, prefix: &str, suffix: &str) -> String {
    while taken.contains(&name) {
        name = format!("{prefix}{name}{suffix}");
    }
    name
}

/// Every identifier in `tokens`, without `r#`.
fn idents_of(tokens: TokenStream) -> HashSet<String> {
    let mut found = HashSet::new();
    fn visit(tokens: TokenStream, found: &mut HashSet<String>) {
        for token in tokens {
            match token {
                TokenTree::Ident(ident) => {
                    found.insert(unraw(&ident));
                }
                TokenTree::Group(group) => visit(group.stream(), found),
                _ => {}
            }
        }
    }
    visit(tokens, &mut found);
    found
}
