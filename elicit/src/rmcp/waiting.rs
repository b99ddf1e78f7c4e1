//! The future an asynchronous part of the integration hands back, boxed so that the traits
//! that return one (a way of asking, URL mode's tracking) can be objects. A leaf: both sides
//! name it without importing each other.

use std::future::Future;
use std::pin::Pin;

/// A boxed future of `T` that may hold borrows for `'a`.
pub(crate) type Waiting<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;
