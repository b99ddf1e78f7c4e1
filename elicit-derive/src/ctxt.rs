//! Collects every error of one derive so the user sees them all at once.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// The errors found so far while reading and checking one derive input.
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// Records an error spanned on `tokens`, the user's own token.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error from syn (a parse error of an attribute, say).
    pub fn syn_error(&self, error: syn::Error) {
        self.errors.borrow_mut().push(error);
    }

    /// How many errors were recorded so far.
    pub fn error_count(&self) -> usize {
        self.errors.borrow().len()
    }

    /// All errors combined into one, or `Ok` when there were none.
    pub fn check(self) -> syn::Result<()> {
        let mut errors = self.errors.into_inner().into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            combined.combine(error);
        }
        Err(combined)
    }
}
