//! `schemars` interop (feature `schemars`): every type of `#[derive(Elicit)]` also implements
//! `schemars::JsonSchema`, whose schema is the derived one.
//!
//! A proc-macro cannot see the features of the crate it expands for, so the derive always
//! invokes [`__impl_json_schema!`](crate::__impl_json_schema), and this module defines that macro
//! one way with the feature (the impl) and another without it (nothing).
//!
//! A form's schema is its `requestedSchema`, unchanged; a choice enum's is the single-select of
//! its choices (`enum`, or `oneOf` with titles). `schemars::schema_for!` adds, as for any root
//! schema, `$schema` and a `title` naming the type.
//!
//! Do not also derive `schemars::JsonSchema` on a derived type: the impls would conflict.

/// Implements `schemars::JsonSchema` for a derived form (`form`), choice enum (`choice`) or
/// newtype (`value`):
/// `(kind, "Name", [impl generics], Type<..>, [where clause])`. Expands to nothing without the
/// runtime crate's `schemars` feature.
#[cfg(feature = "schemars")]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_json_schema {
    ($kind:ident, $name:literal, [$($impl_generics:tt)*], $ty:ty, [$($where_clause:tt)*]) => {
        #[automatically_derived]
        impl $($impl_generics)* $crate::__private::json_schema::schemars::JsonSchema for $ty $($where_clause)* {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed($name)
            }
            // The name is only the identifier; the id tells apart same-named types of other
            // modules and each instantiation of a generic form.
            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(::core::any::type_name::<Self>())
            }
            fn json_schema(
                _: &mut $crate::__private::json_schema::schemars::SchemaGenerator,
            ) -> $crate::__private::json_schema::schemars::Schema {
                $crate::__private::json_schema::$kind::<Self>()
            }
        }
    };
}

/// Without the `schemars` feature there is no `JsonSchema` to implement.
#[cfg(not(feature = "schemars"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_json_schema {
    ($($tokens:tt)*) => {};
}

/// What the expansion of `__impl_json_schema!` calls, as `__private::json_schema`.
#[cfg(feature = "schemars")]
#[cfg_attr(docsrs, doc(cfg(feature = "schemars")))]
pub mod with_schemars {
    use std::borrow::Cow;

    use serde_json::Value;

    use crate::Elicit;
    use crate::form::field::{ElicitChoice, ElicitValue};
    use crate::schema::{
        PrimitiveSchema, RequestedSchema, TitledSingleSelectEnumSchema,
        UntitledSingleSelectEnumSchema,
    };

    pub use schemars;

    /// The schema of a derived form: its `requestedSchema`.
    pub fn form<T: Elicit>() -> schemars::Schema {
        T::requested_schema().into()
    }

    /// The schema of a derived choice enum: the single-select of its choices, as a field of that
    /// enum's type carries it in a form.
    pub fn choice<E: ElicitChoice>() -> schemars::Schema {
        let choices = E::CHOICES;
        let select = match choices.titled {
            Some(options) => PrimitiveSchema::TitledSingleSelect(TitledSingleSelectEnumSchema {
                options: Cow::Borrowed(options),
                ..Default::default()
            }),
            None => PrimitiveSchema::SingleSelect(UntitledSingleSelectEnumSchema {
                values: Cow::Borrowed(choices.values),
                ..Default::default()
            }),
        };
        object_schema(serde_json::to_value(&select))
    }

    /// The schema of a field value type (a derived newtype, [`Email`](crate::Email)): the
    /// property a field of that type has in a form, without title, description or default.
    pub fn value<T: ElicitValue>() -> schemars::Schema {
        let property = crate::schema::derived::property(
            "",
            false,
            T::KIND,
            crate::schema::derived::Attrs::NONE,
        );
        object_schema(serde_json::to_value(&property.schema))
    }

    #[cfg_attr(docsrs, doc(cfg(feature = "schemars")))]
    impl schemars::JsonSchema for crate::Email {
        fn schema_name() -> Cow<'static, str> {
            Cow::Borrowed("Email")
        }
        fn schema_id() -> Cow<'static, str> {
            Cow::Borrowed("elicit_mcp::Email")
        }
        /// `{"type": "string", "format": "email"}`, as in a form.
        fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
            value::<crate::Email>()
        }
    }

    #[cfg_attr(docsrs, doc(cfg(feature = "schemars")))]
    impl From<&RequestedSchema> for schemars::Schema {
        /// The same JSON as `serde_json::to_value(schema)`, as a schemars schema.
        fn from(schema: &RequestedSchema) -> Self {
            object_schema(serde_json::to_value(schema))
        }
    }

    fn object_schema(value: Result<Value, serde_json::Error>) -> schemars::Schema {
        match value {
            Ok(Value::Object(object)) => object.into(),
            // Not reached: both schemas serialize as maps with string keys and finite numbers,
            // which `to_value` cannot fail on. Were it reached, `false` (nothing is valid) is the
            // answer that cannot let bad data through.
            _ => false.into(),
        }
    }
}
