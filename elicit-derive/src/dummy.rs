//! The one wrapper every generated impl goes through, as serde's `dummy.rs`.

use proc_macro2::TokenStream;
use quote::quote;

/// `code` inside an unnamed constant, so the items it declares (statics, helper constants, the
/// check constants) stay out of the user's namespace, with the lints that generated code would
/// trip in the user's crate (lowercase statics, clippy's) allowed. Impls inside it apply to the
/// type all the same.
pub fn wrap_in_const(code: TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            #code
        };
    }
}
