//! The one wrapper every generated impl goes through, as serde's `dummy.rs`.

use proc_macro2::TokenStream;
use quote::quote;

/// `code` inside an unnamed constant, so the items it declares (statics, helper constants, the
/// check constants) stay out of the user's namespace, with the lints that generated code would
/// trip in the user's crate (lowercase statics, clippy's) allowed. Impls inside it apply to the
/// type all the same.
///
/// The constant imports the runtime crate (`runtime`, its path), its `__private` module and
/// `Option`'s variants under names of its own ([`RUNTIME`], `__elicit_private`, [`SOME`],
/// [`NONE`]), which `code` uses: one token where a full path is three to eight, paid by every
/// build of every form, and still names no user item can capture.
pub fn wrap_in_const(runtime: &TokenStream, code: TokenStream) -> TokenStream {
    let krate = quote::format_ident!("{}", RUNTIME);
    let some = quote::format_ident!("{}", SOME);
    let none = quote::format_ident!("{}", NONE);
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            #[allow(unused_imports)]
            use #runtime as #krate;
            #[allow(unused_imports)]
            use #runtime::__private as __elicit_private;
            #[allow(unused_imports)]
            use ::core::option::Option::{None as #none, Some as #some};
            #code
        };
    }
}

/// The runtime crate's name inside the constant of [`wrap_in_const`].
pub const RUNTIME: &str = "__elicit";
/// `Option::Some` inside the constant of [`wrap_in_const`].
pub const SOME: &str = "__ElicitSome";
/// `Option::None` inside the constant of [`wrap_in_const`].
pub const NONE: &str = "__ElicitNone";
