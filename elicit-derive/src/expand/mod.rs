//! Code generation. Every impl goes in the unnamed constant of [`crate::dummy`] and names the
//! runtime crate's items through its `__private` module, by the names that constant imports them
//! under (`__elicit`, `__elicit_private`, `__ElicitSome`), so user names (`struct Result;`, a
//! local `Option`) cannot capture them. Type-dependent facts are left to
//! the compiler: each field's schema comes from `<T as ElicitField>::KIND`, so aliases and
//! foreign types work and a type without a mapping fails with the trait's own message, spanned
//! on the field's type.
//!
//! `form`, `choice` and `newtype` expand the three shapes of input; `field` is one form field's
//! code, `defaults` a form's run-time defaults type, `dispatch` the branch from a content key (or a choice's wire value) to its field,
//! `typeck` the checks the compiler makes against a field's type, `bound` a generic form's
//! where-clause, and `fallback` what a form with errors expands to beside them. `literal` and
//! `runtime` are the leaves they share.

mod bound;
mod choice;
mod defaults;
mod dispatch;
mod fallback;
mod field;
mod form;
mod literal;
mod newtype;
mod runtime;
mod typeck;

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::internals::ast::Input;
use crate::internals::check;
use crate::internals::ctxt::Ctxt;

/// The expansion of `#[derive(Elicit)]` on `input`: its impls, or every error the derive found
/// together with the code that lets the compiler go on past them.
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
                Some(Input::Form(form)) => form::expand_form(&form),
                Some(Input::Choice(choice)) => choice::expand_choice(&choice),
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
        Some(Input::Choice(choice)) => choice::expand_choice(choice),
        Some(Input::Newtype(newtype)) => newtype::expand_newtype(newtype, false),
        None => TokenStream::new(),
    };
    quote!(#errors #fallback)
}
