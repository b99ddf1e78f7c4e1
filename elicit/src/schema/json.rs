//! A JSON writer that runs in `const` evaluation, so that `requested_schema_json()` of a derived
//! type is a `&'static str` laid down at compile time.
//!
//! It writes exactly what `serde_json::to_string` writes for the same [`RequestedSchema`]: the
//! same key order as the `Serialize` impls in `schema/serialize.rs`, the same string escapes, and
//! floats in the text the derive computed with `zmij`, the formatter `serde_json` (>= 1.0.147)
//! uses. A test holds the two outputs equal for every schema in the suite.
//!
//! Every function is a `const fn` over borrowed data; an owned part (only found in schemas parsed
//! at run time) is read through the const `as_str`/`as_slice` accessors.

use std::borrow::Cow;

use crate::schema::number::{ConstNumber, Number};
use crate::schema::{PrimitiveSchema, Property, StringFormat, TitledOption};

/// Counts bytes and, when `out` has room, stores them: the first pass sizes the buffer.
struct Writer<'a> {
    out: &'a mut [u8],
    len: usize,
}

impl Writer<'_> {
    const fn byte(&mut self, b: u8) {
        if self.len < self.out.len() {
            self.out[self.len] = b;
        }
        self.len += 1;
    }

    const fn raw(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            self.byte(bytes[i]);
            i += 1;
        }
    }

    /// A JSON string with `serde_json`'s escapes.
    const fn string(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.byte(b'"');
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            match b {
                b'"' => self.raw("\\\""),
                b'\\' => self.raw("\\\\"),
                0x08 => self.raw("\\b"),
                0x0C => self.raw("\\f"),
                b'\n' => self.raw("\\n"),
                b'\r' => self.raw("\\r"),
                b'\t' => self.raw("\\t"),
                0x00..=0x1F => {
                    self.raw("\\u00");
                    self.byte(HEX[(b >> 4) as usize]);
                    self.byte(HEX[(b & 0xF) as usize]);
                }
                _ => self.byte(b),
            }
            i += 1;
        }
        self.byte(b'"');
    }

    const fn unsigned(&mut self, mut n: u64) {
        let mut digits = [0u8; 20];
        let mut count = 0;
        loop {
            digits[count] = b'0' + (n % 10) as u8;
            count += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        while count > 0 {
            count -= 1;
            self.byte(digits[count]);
        }
    }

    const fn signed(&mut self, n: i64) {
        if n < 0 {
            self.byte(b'-');
        }
        self.unsigned(n.unsigned_abs());
    }

    const fn number(&mut self, n: &Number) {
        match n.const_json() {
            Ok(ConstNumber::Int(i)) => self.signed(i),
            Ok(ConstNumber::Text(text)) => self.raw(text),
            Err(()) => panic!("a float parsed at run time has no compile-time JSON text"),
        }
    }

    /// `,"key":` with the comma unless this is the object's first entry.
    const fn key(&mut self, first: &mut bool, key: &str) {
        if !*first {
            self.byte(b',');
        }
        *first = false;
        self.string(key);
        self.byte(b':');
    }

    const fn opt_text(&mut self, first: &mut bool, key: &str, value: &Option<Cow<'static, str>>) {
        if let Some(text) = value {
            self.key(first, key);
            self.string(cow_str(text));
        }
    }

    const fn opt_count(&mut self, first: &mut bool, key: &str, value: &Option<u64>) {
        if let Some(n) = value {
            self.key(first, key);
            self.unsigned(*n);
        }
    }

    const fn opt_number(&mut self, first: &mut bool, key: &str, value: &Option<Number>) {
        if let Some(n) = value {
            self.key(first, key);
            self.number(n);
        }
    }

    const fn texts(&mut self, list: &[Cow<'static, str>]) {
        self.byte(b'[');
        let mut i = 0;
        while i < list.len() {
            if i > 0 {
                self.byte(b',');
            }
            self.string(cow_str(&list[i]));
            i += 1;
        }
        self.byte(b']');
    }

    const fn opt_texts(
        &mut self,
        first: &mut bool,
        key: &str,
        value: &Option<Cow<'static, [Cow<'static, str>]>>,
    ) {
        if let Some(list) = value {
            self.key(first, key);
            self.texts(cow_slice(list));
        }
    }

    const fn options(&mut self, options: &[TitledOption]) {
        self.byte(b'[');
        let mut i = 0;
        while i < options.len() {
            if i > 0 {
                self.byte(b',');
            }
            self.raw("{\"const\":");
            self.string(cow_str(&options[i].value));
            self.raw(",\"title\":");
            self.string(cow_str(&options[i].title));
            self.byte(b'}');
            i += 1;
        }
        self.byte(b']');
    }

    const fn form(
        &mut self,
        schema_uri: &Option<Cow<'static, str>>,
        title: &Option<Cow<'static, str>>,
        description: &Option<Cow<'static, str>>,
        properties: &[Property],
    ) {
        let mut first = true;
        self.byte(b'{');
        self.opt_text(&mut first, "$schema", schema_uri);
        self.key(&mut first, "type");
        self.string("object");
        self.opt_text(&mut first, "title", title);
        self.opt_text(&mut first, "description", description);
        self.key(&mut first, "properties");
        self.byte(b'{');
        let mut i = 0;
        let mut any_required = false;
        while i < properties.len() {
            if i > 0 {
                self.byte(b',');
            }
            self.string(cow_str(&properties[i].name));
            self.byte(b':');
            self.primitive(&properties[i].schema);
            any_required |= properties[i].required;
            i += 1;
        }
        self.byte(b'}');
        if any_required {
            self.key(&mut first, "required");
            self.required(properties);
        }
        self.byte(b'}');
    }

    const fn required(&mut self, properties: &[Property]) {
        self.byte(b'[');
        let mut i = 0;
        let mut written = 0;
        while i < properties.len() {
            if properties[i].required {
                if written > 0 {
                    self.byte(b',');
                }
                self.string(cow_str(&properties[i].name));
                written += 1;
            }
            i += 1;
        }
        self.byte(b']');
    }

    const fn primitive(&mut self, schema: &PrimitiveSchema) {
        let mut first = true;
        self.byte(b'{');
        self.key(&mut first, "type");
        match schema {
            PrimitiveSchema::String(s) => {
                self.string("string");
                self.opt_text(&mut first, "title", &s.title);
                self.opt_text(&mut first, "description", &s.description);
                self.opt_count(&mut first, "minLength", &s.min_length);
                self.opt_count(&mut first, "maxLength", &s.max_length);
                self.opt_text(&mut first, "pattern", &s.pattern);
                if let Some(format) = s.format {
                    self.key(&mut first, "format");
                    self.string(StringFormat::as_str(format));
                }
                self.opt_text(&mut first, "default", &s.default);
            }
            PrimitiveSchema::Number(s) => {
                self.string(s.kind.as_str());
                self.opt_text(&mut first, "title", &s.title);
                self.opt_text(&mut first, "description", &s.description);
                self.opt_number(&mut first, "minimum", &s.minimum);
                self.opt_number(&mut first, "maximum", &s.maximum);
                self.opt_number(&mut first, "default", &s.default);
            }
            PrimitiveSchema::Boolean(s) => {
                self.string("boolean");
                self.opt_text(&mut first, "title", &s.title);
                self.opt_text(&mut first, "description", &s.description);
                if let Some(b) = s.default {
                    self.key(&mut first, "default");
                    self.raw(if b { "true" } else { "false" });
                }
            }
            PrimitiveSchema::SingleSelect(s) => {
                self.string("string");
                self.opt_text(&mut first, "title", &s.title);
                self.opt_text(&mut first, "description", &s.description);
                self.key(&mut first, "enum");
                self.texts(cow_slice(&s.values));
                self.opt_text(&mut first, "default", &s.default);
            }
            PrimitiveSchema::TitledSingleSelect(s) => {
                self.string("string");
                self.opt_text(&mut first, "title", &s.title);
                self.opt_text(&mut first, "description", &s.description);
                self.key(&mut first, "oneOf");
                self.options(cow_slice(&s.options));
                self.opt_text(&mut first, "default", &s.default);
            }
            PrimitiveSchema::LegacyTitled(s) => {
                self.string("string");
                self.opt_text(&mut first, "title", &s.title);
                self.opt_text(&mut first, "description", &s.description);
                self.key(&mut first, "enum");
                self.texts(cow_slice(&s.values));
                self.key(&mut first, "enumNames");
                self.texts(cow_slice(&s.names));
                self.opt_text(&mut first, "default", &s.default);
            }
            PrimitiveSchema::MultiSelect(s) => {
                self.string("array");
                self.opt_text(&mut first, "title", &s.title);
                self.opt_text(&mut first, "description", &s.description);
                self.opt_count(&mut first, "minItems", &s.min_items);
                self.opt_count(&mut first, "maxItems", &s.max_items);
                self.key(&mut first, "items");
                self.raw("{\"type\":\"string\",\"enum\":");
                self.texts(cow_slice(&s.values));
                self.byte(b'}');
                self.opt_texts(&mut first, "default", &s.default);
            }
            PrimitiveSchema::TitledMultiSelect(s) => {
                self.string("array");
                self.opt_text(&mut first, "title", &s.title);
                self.opt_text(&mut first, "description", &s.description);
                self.opt_count(&mut first, "minItems", &s.min_items);
                self.opt_count(&mut first, "maxItems", &s.max_items);
                self.key(&mut first, "items");
                self.raw("{\"anyOf\":");
                self.options(cow_slice(&s.options));
                self.byte(b'}');
                self.opt_texts(&mut first, "default", &s.default);
            }
        }
        self.byte(b'}');
    }
}

// A `&Cow` because `Deref` is not callable in const fn: the match is the deref.
#[allow(clippy::ptr_arg)]
const fn cow_str<'a>(cow: &'a Cow<'static, str>) -> &'a str {
    match cow {
        Cow::Borrowed(s) => s,
        Cow::Owned(s) => s.as_str(),
    }
}

#[allow(clippy::ptr_arg)]
const fn cow_slice<'a, T: Clone>(cow: &'a Cow<'static, [T]>) -> &'a [T] {
    match cow {
        Cow::Borrowed(s) => s,
        Cow::Owned(v) => v.as_slice(),
    }
}

/// The length of the JSON text of a schema over `properties` (as a derived schema: no
/// `$schema`, `title` or `description`). Takes the properties rather than a `RequestedSchema`
/// so that no value with drop glue is a temporary of the constant that calls it.
pub const fn json_len(properties: &'static [Property]) -> usize {
    let mut empty: [u8; 0] = [];
    let mut writer = Writer {
        out: &mut empty,
        len: 0,
    };
    writer.form(&None, &None, &None, properties);
    writer.len
}

/// The JSON text of a schema over `properties`, `N` being [`json_len`] of the same.
pub const fn json_bytes<const N: usize>(properties: &'static [Property]) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut writer = Writer {
        out: &mut buf,
        len: 0,
    };
    writer.form(&None, &None, &None, properties);
    assert!(
        writer.len == N,
        "json_bytes called with a length other than json_len"
    );
    buf
}

/// The bytes as text; they are UTF-8 since every piece written came from a `&str`.
pub const fn json_str(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("the const JSON writer produced invalid UTF-8"),
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow::Borrowed;

    use super::*;
    use crate::schema::{
        BooleanSchema, LegacyTitledEnumSchema, NumberSchema, NumberType, RequestedSchema,
        StringSchema, TitledMultiSelectEnumSchema, TitledSingleSelectEnumSchema,
        UntitledMultiSelectEnumSchema, UntitledSingleSelectEnumSchema,
    };

    const OPTIONS: &[TitledOption] = &[TitledOption {
        value: Borrowed("#F00"),
        title: Borrowed("Red \"hot\""),
    }];
    const VALUES: &[Cow<'static, str>] = &[Borrowed("a"), Borrowed("b\\c")];

    /// Every variant and every escape the writer knows, next to what serde_json writes.
    static PROPERTIES: &[Property] = &[
        Property::from_static(
            "text\u{1}\u{8}\u{c}\n\r\t\"\\é\u{7f}",
            true,
            PrimitiveSchema::String(StringSchema {
                title: Some(Borrowed("T")),
                description: Some(Borrowed("line\nbreak")),
                min_length: Some(0),
                max_length: Some(u64::MAX),
                pattern: Some(Borrowed("^\\d+$")),
                format: Some(StringFormat::DateTime),
                default: Some(Borrowed("1")),
            }),
        ),
        Property::from_static(
            "n",
            false,
            PrimitiveSchema::Number(NumberSchema {
                kind: NumberType::Number,
                title: None,
                description: None,
                minimum: Some(Number::from_i64(i64::MIN)),
                maximum: Some(Number::from_f64_text(1e300, "1e+300")),
                default: Some(Number::from_f64_text(-0.5, "-0.5")),
            }),
        ),
        Property::from_static(
            "b",
            false,
            PrimitiveSchema::Boolean(BooleanSchema {
                title: None,
                description: None,
                default: Some(false),
            }),
        ),
        Property::from_static(
            "s1",
            false,
            PrimitiveSchema::SingleSelect(UntitledSingleSelectEnumSchema {
                title: None,
                description: None,
                values: Borrowed(VALUES),
                default: Some(Borrowed("a")),
            }),
        ),
        Property::from_static(
            "s2",
            true,
            PrimitiveSchema::TitledSingleSelect(TitledSingleSelectEnumSchema {
                title: None,
                description: None,
                options: Borrowed(OPTIONS),
                default: None,
            }),
        ),
        Property::from_static(
            "m1",
            false,
            PrimitiveSchema::MultiSelect(UntitledMultiSelectEnumSchema {
                title: None,
                description: None,
                min_items: Some(1),
                max_items: None,
                values: Borrowed(VALUES),
                default: Some(Borrowed(VALUES)),
            }),
        ),
        Property::from_static(
            "m2",
            false,
            PrimitiveSchema::TitledMultiSelect(TitledMultiSelectEnumSchema {
                title: None,
                description: None,
                min_items: None,
                max_items: Some(3),
                options: Borrowed(OPTIONS),
                default: None,
            }),
        ),
        Property::from_static(
            "legacy",
            false,
            PrimitiveSchema::LegacyTitled(LegacyTitledEnumSchema {
                title: None,
                description: None,
                values: Borrowed(VALUES),
                names: Borrowed(VALUES),
                default: None,
            }),
        ),
    ];

    const LEN: usize = json_len(PROPERTIES);
    const BYTES: [u8; LEN] = json_bytes::<LEN>(PROPERTIES);

    #[test]
    fn const_writer_matches_serde_json() {
        let ours = json_str(&BYTES);
        let theirs = serde_json::to_string(&RequestedSchema::from_static(PROPERTIES)).unwrap();
        assert_eq!(ours, theirs);
    }

    #[test]
    fn float_texts_match_serde_json() {
        // The runtime's own float constants (f32 bounds) must print as serde_json does.
        for (value, text) in [
            (f32::MAX as f64, "3.4028234663852886e+38"),
            (-(f32::MAX as f64), "-3.4028234663852886e+38"),
        ] {
            assert_eq!(serde_json::to_string(&value).unwrap(), text);
        }
    }
}
