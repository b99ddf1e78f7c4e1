//! Which attributes a field's type takes: the markers the derive proves of a field with a
//! string, number or multi-select attribute.

// The derive proves these with `<T as StringField>::PROVEN`, a projection, rather than with a
// bounded function, so the error names no function inside elicit. The impls are
// `do_not_recommend` so the error does not list them all.

/// Fields that take `min_length`, `max_length`, `pattern` and `format`.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`min_length`, `max_length`, `pattern` and `format` apply only to string fields, and `{Self}` is not one",
    label = "this attribute needs a `String` field"
)]
pub trait StringField {
    #[doc(hidden)]
    const PROVEN: () = ();
}
#[diagnostic::do_not_recommend]
impl StringField for String {}
#[diagnostic::do_not_recommend]
impl StringField for Option<String> {}
#[diagnostic::do_not_recommend]
impl StringField for crate::Secret<String> {}
#[diagnostic::do_not_recommend]
impl StringField for Option<crate::Secret<String>> {}

/// Fields that take `minimum` and `maximum`.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`minimum` and `maximum` apply only to number fields, and `{Self}` is not one",
    label = "this attribute needs an integer or float field"
)]
pub trait NumberField {
    #[doc(hidden)]
    const PROVEN: () = ();
}

/// Fields that take `min_items` and `max_items`.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`min_items` and `max_items` apply only to multi-select fields, and `{Self}` is not one",
    label = "this attribute needs a Vec, BTreeSet or HashSet of a choice enum"
)]
pub trait MultiSelectField {
    #[doc(hidden)]
    const PROVEN: () = ();
}

macro_rules! markers {
    ($marker:ident: $($ty:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl $marker for $ty {}
        #[diagnostic::do_not_recommend]
        impl $marker for Option<$ty> {}
    )*};
}
markers!(NumberField: u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64);

/// A newtype derived with `#[derive(Elicit)]`: it takes the attributes its field's type takes.
#[doc(hidden)]
pub trait Newtype {
    type Inner;
}

macro_rules! newtype_markers {
    ($($marker:ident),*) => {$(
        #[diagnostic::do_not_recommend]
        impl<T: Newtype> $marker for T where T::Inner: $marker {}
        #[diagnostic::do_not_recommend]
        impl<T: Newtype> $marker for Option<T> where T::Inner: $marker {}
    )*};
}
newtype_markers!(StringField, NumberField);
