//! Conversions between this crate's wire model and rmcp's: schema, request params, result,
//! capability, the -32042 error and the completion notification.
//!
//! Each direction is exact or refuses. rmcp's model is the smaller one, so rmcp to elicit is
//! exact whenever it succeeds, and fails only where elicit's checks of the restricted subset do
//! (a `required` name that is not a property, say). Elicit to rmcp fails, with
//! [`Unrepresentable`], where rmcp's model has no place for a value: a string `pattern`, a
//! length past `u32`, a number a double cannot hold exactly, capability members other than
//! `form.schemaValidation`. Two differences are not losses: `required` is a set (rmcp keeps its
//! own order, elicit lists it in property order, and an empty list is the same as none), and
//! rmcp writes a `number` schema's integral bounds as floats (`30.0` for `30`).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use ::rmcp::model as sdk;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::capability::ElicitationCapability;
use crate::client::InvalidElicitRequest;
use crate::error::ContentError;
use crate::protocol::{
    ElicitRequestParams, ElicitRequestUrlParams, ElicitationCompleteNotification,
    ElicitationCompleteParams, JsonRpcError, NotUrlElicitationRequired,
    UrlElicitationRequiredError,
};
use crate::request::ElicitRequestFormParams;
use crate::result::{ElicitAction, ElicitResult};
use crate::schema::{
    Number, NumberSchema, NumberType, PrimitiveSchema, RequestedSchema, SchemaError, StringFormat,
    StringSchema, TitledOption,
};

/// Something of elicit's model that rmcp's model cannot carry exactly, so a conversion into it
/// refuses rather than drop or round it.
///
/// ```
/// use elicit::Elicit;
/// use elicit::rmcp::Unrepresentable;
///
/// #[derive(Elicit)]
/// struct Code {
///     #[elicit(pattern = "^[A-Z]{3}$")]
///     code: String,
/// }
/// let err: Unrepresentable =
///     rmcp::model::ElicitationSchema::try_from(Code::requested_schema()).unwrap_err();
/// assert_eq!(err.property(), Some("code"));
/// assert_eq!(err.to_string(), "rmcp's model cannot carry property `code`: rmcp's StringSchema has no `pattern`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unrepresentable {
    property: Option<String>,
    reason: String,
}

impl Unrepresentable {
    fn at(property: &str, reason: impl Into<String>) -> Self {
        Unrepresentable {
            property: Some(property.to_owned()),
            reason: reason.into(),
        }
    }

    fn top(reason: impl Into<String>) -> Self {
        Unrepresentable {
            property: None,
            reason: reason.into(),
        }
    }

    pub(crate) fn unserializable(error: serde_json::Error) -> Self {
        Unrepresentable::top(format!("it does not serialize to JSON: {error}"))
    }

    /// The form property at fault, when the value is in one.
    pub fn property(&self) -> Option<&str> {
        self.property.as_deref()
    }

    /// What rmcp's model has no place for.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

const NO_PATTERN: &str = "rmcp's StringSchema has no `pattern`";

impl fmt::Display for Unrepresentable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.property {
            Some(property) => write!(
                f,
                "rmcp's model cannot carry property `{property}`: {}",
                self.reason
            ),
            None => write!(f, "rmcp's model cannot carry this: {}", self.reason),
        }
    }
}

impl std::error::Error for Unrepresentable {}

// ---------------------------------------------------------------------------------------------
// Schema

/// What to do with a string `pattern`, which rmcp's `StringSchema` has no field for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Patterns {
    /// Refuse the conversion: it must be exact.
    Refuse,
    /// Leave the pattern out of the schema sent; the derived parser still enforces it.
    Omit,
}

impl TryFrom<&RequestedSchema> for sdk::ElicitationSchema {
    type Error = Unrepresentable;

    /// The same schema in rmcp's model, properties in the same order.
    fn try_from(schema: &RequestedSchema) -> Result<Self, Unrepresentable> {
        to_sdk_schema(schema, Patterns::Refuse)
    }
}

impl TryFrom<RequestedSchema> for sdk::ElicitationSchema {
    type Error = Unrepresentable;

    fn try_from(schema: RequestedSchema) -> Result<Self, Unrepresentable> {
        to_sdk_schema(&schema, Patterns::Refuse)
    }
}

pub(crate) fn to_sdk_schema(
    schema: &RequestedSchema,
    patterns: Patterns,
) -> Result<sdk::ElicitationSchema, Unrepresentable> {
    let mut properties = BTreeMap::new();
    let mut order = Vec::with_capacity(schema.properties.len());
    for property in schema.properties() {
        let definition = to_sdk_property(&property.name, &property.schema, patterns)?;
        properties.insert(property.name.to_string(), definition);
        order.push(property.name.to_string());
    }
    let mut converted = sdk::ElicitationSchema::new(properties);
    converted.property_order = Some(order);
    converted.schema = schema.schema_uri.clone();
    converted.title = schema.title.clone();
    converted.description = schema.description.clone();
    let required: Vec<String> = schema.required().map(str::to_owned).collect();
    // As elicit writes it: no `required` member when nothing is required.
    converted.required = (!required.is_empty()).then_some(required);
    Ok(converted)
}

fn to_sdk_property(
    name: &str,
    schema: &PrimitiveSchema,
    patterns: Patterns,
) -> Result<sdk::PrimitiveSchemaDefinition, Unrepresentable> {
    use sdk::PrimitiveSchemaDefinition as Def;
    let definition = match schema {
        PrimitiveSchema::String(s) => Def::String(to_sdk_string(name, s, patterns)?),
        PrimitiveSchema::Number(s) => match s.kind {
            NumberType::Number => Def::Number(to_sdk_number(name, s)?),
            NumberType::Integer => Def::Integer(to_sdk_integer(name, s)?),
        },
        PrimitiveSchema::Boolean(s) => {
            let mut boolean = sdk::BooleanSchema::new();
            boolean.title = s.title.clone();
            boolean.description = s.description.clone();
            boolean.default = s.default;
            Def::Boolean(boolean)
        }
        PrimitiveSchema::SingleSelect(s) => {
            let mut select: sdk::UntitledSingleSelectEnumSchema =
                from_shape(name, json!({"type": "string", "enum": s.values}))?;
            select.title = s.title.clone();
            select.description = s.description.clone();
            select.default = s.default.as_deref().map(str::to_owned);
            Def::Enum(sdk::EnumSchema::Single(
                sdk::SingleSelectEnumSchema::Untitled(select),
            ))
        }
        PrimitiveSchema::TitledSingleSelect(s) => {
            let mut select = sdk::TitledSingleSelectEnumSchema::new(const_titles(&s.options));
            select.title = s.title.clone();
            select.description = s.description.clone();
            select.default = s.default.as_deref().map(str::to_owned);
            Def::Enum(sdk::EnumSchema::Single(
                sdk::SingleSelectEnumSchema::Titled(select),
            ))
        }
        PrimitiveSchema::LegacyTitled(s) => {
            let mut select = sdk::LegacyEnumSchema::new(strings(&s.values));
            select.title = s.title.clone();
            select.description = s.description.clone();
            select.enum_names = Some(strings(&s.names));
            select.default = s.default.as_deref().map(str::to_owned);
            Def::Enum(sdk::EnumSchema::Legacy(select))
        }
        PrimitiveSchema::MultiSelect(s) => {
            let mut select: sdk::UntitledMultiSelectEnumSchema = from_shape(
                name,
                json!({"type": "array", "items": {"type": "string", "enum": s.values}}),
            )?;
            select.title = s.title.clone();
            select.description = s.description.clone();
            select.min_items = s.min_items;
            select.max_items = s.max_items;
            select.default = s.default.as_deref().map(strings);
            Def::Enum(sdk::EnumSchema::Multi(
                sdk::MultiSelectEnumSchema::Untitled(select),
            ))
        }
        PrimitiveSchema::TitledMultiSelect(s) => {
            let mut select = sdk::TitledMultiSelectEnumSchema::new(sdk::TitledItems::new(
                const_titles(&s.options),
            ));
            select.title = s.title.clone();
            select.description = s.description.clone();
            select.min_items = s.min_items;
            select.max_items = s.max_items;
            select.default = s.default.as_deref().map(strings);
            Def::Enum(sdk::EnumSchema::Multi(sdk::MultiSelectEnumSchema::Titled(
                select,
            )))
        }
    };
    Ok(definition)
}

/// The two untitled selects of rmcp have no constructor; serde builds them from their shape.
fn from_shape<T: for<'de> Deserialize<'de>>(
    name: &str,
    shape: Value,
) -> Result<T, Unrepresentable> {
    T::deserialize(shape).map_err(|e| Unrepresentable::at(name, e.to_string()))
}

fn strings(texts: &[Cow<'static, str>]) -> Vec<String> {
    texts.iter().map(|t| t.to_string()).collect()
}

fn const_titles(options: &[TitledOption]) -> Vec<sdk::ConstTitle> {
    options
        .iter()
        .map(|o| sdk::ConstTitle::new(o.value.to_string(), o.title.to_string()))
        .collect()
}

fn to_sdk_string(
    name: &str,
    s: &StringSchema,
    patterns: Patterns,
) -> Result<sdk::StringSchema, Unrepresentable> {
    if s.pattern.is_some() && patterns == Patterns::Refuse {
        return Err(Unrepresentable::at(name, NO_PATTERN));
    }
    let length = |keyword: &str, value: Option<u64>| -> Result<Option<u32>, Unrepresentable> {
        value
            .map(|n| {
                u32::try_from(n).map_err(|_| {
                    Unrepresentable::at(
                        name,
                        format!("rmcp's `{keyword}` is a u32; {n} is past it"),
                    )
                })
            })
            .transpose()
    };
    let mut string = sdk::StringSchema::new();
    string.title = s.title.clone();
    string.description = s.description.clone();
    string.min_length = length("minLength", s.min_length)?;
    string.max_length = length("maxLength", s.max_length)?;
    string.format = s.format.map(|format| match format {
        StringFormat::Email => sdk::StringFormat::Email,
        StringFormat::Uri => sdk::StringFormat::Uri,
        StringFormat::Date => sdk::StringFormat::Date,
        StringFormat::DateTime => sdk::StringFormat::DateTime,
    });
    string.default = s.default.as_deref().map(str::to_owned);
    Ok(string)
}

fn to_sdk_number(name: &str, s: &NumberSchema) -> Result<sdk::NumberSchema, Unrepresentable> {
    // rmcp holds `number` bounds as f64: an integer past 2^53 would be rounded.
    let float = |keyword: &str, value: Option<Number>| -> Result<Option<f64>, Unrepresentable> {
        match value {
            None => Ok(None),
            Some(n) => match n.as_i64() {
                Some(i) if i.unsigned_abs() > crate::schema::MAX_SAFE_INTEGER.unsigned_abs() => {
                    Err(Unrepresentable::at(
                        name,
                        format!(
                            "rmcp holds `{keyword}` as a double, which cannot hold {i} exactly"
                        ),
                    ))
                }
                _ => Ok(Some(n.as_f64())),
            },
        }
    };
    let mut number = sdk::NumberSchema::new();
    number.title = s.title.clone();
    number.description = s.description.clone();
    number.minimum = float("minimum", s.minimum)?;
    number.maximum = float("maximum", s.maximum)?;
    number.default = float("default", s.default)?;
    Ok(number)
}

fn to_sdk_integer(name: &str, s: &NumberSchema) -> Result<sdk::IntegerSchema, Unrepresentable> {
    // rmcp holds `integer` bounds as i64; a float that is a whole number (`2.0`, as a peer may
    // write it) converts exactly, a fraction cannot.
    let integer = |keyword: &str, value: Option<Number>| -> Result<Option<i64>, Unrepresentable> {
        match value {
            None => Ok(None),
            Some(n) => exact_i64(n).map(Some).ok_or_else(|| {
                Unrepresentable::at(
                    name,
                    format!("rmcp holds an integer's `{keyword}` as an i64, which cannot hold {n}"),
                )
            }),
        }
    };
    let mut number = sdk::IntegerSchema::new();
    number.title = s.title.clone();
    number.description = s.description.clone();
    number.minimum = integer("minimum", s.minimum)?;
    number.maximum = integer("maximum", s.maximum)?;
    number.default = integer("default", s.default)?;
    Ok(number)
}

fn exact_i64(n: Number) -> Option<i64> {
    match n.as_i64() {
        Some(i) => Some(i),
        None => {
            let f = n.as_f64();
            // 2^63 is the first float past i64::MAX; every float below it in magnitude that is
            // a whole number converts exactly.
            let in_range = (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f);
            (f.fract() == 0.0 && in_range).then_some(f as i64)
        }
    }
}

impl TryFrom<&sdk::ElicitationSchema> for RequestedSchema {
    type Error = SchemaError;

    /// The same schema in elicit's model, read with the same checks as a schema from the wire.
    /// Properties keep rmcp's order (its `property_order`, then the rest by name, as rmcp
    /// writes them).
    fn try_from(schema: &sdk::ElicitationSchema) -> Result<Self, SchemaError> {
        let mut names: Vec<&String> = Vec::with_capacity(schema.properties.len());
        if let Some(order) = &schema.property_order {
            names.extend(order.iter().filter(|n| schema.properties.contains_key(*n)));
        }
        let rest: Vec<&String> = schema
            .properties
            .keys()
            .filter(|n| !names.contains(n))
            .collect();
        names.extend(rest);
        let mut properties = Vec::with_capacity(names.len());
        for name in names {
            let definition = &schema.properties[name];
            let value = serde_json::to_value(definition).map_err(|e| {
                SchemaError::at(
                    name,
                    None,
                    format!("rmcp's definition does not serialize: {e}"),
                )
            })?;
            properties.push((name.clone(), value));
        }
        let mut other = vec![("type".to_owned(), Value::from("object"))];
        let mut text = |key: &str, value: &Option<Cow<'static, str>>| {
            if let Some(value) = value {
                other.push((key.to_owned(), Value::from(value.as_ref())));
            }
        };
        text("$schema", &schema.schema);
        text("title", &schema.title);
        text("description", &schema.description);
        if let Some(required) = &schema.required {
            other.push(("required".to_owned(), Value::from(required.clone())));
        }
        RequestedSchema::from_members(properties, other)
    }
}

impl TryFrom<sdk::ElicitationSchema> for RequestedSchema {
    type Error = SchemaError;

    fn try_from(schema: sdk::ElicitationSchema) -> Result<Self, SchemaError> {
        RequestedSchema::try_from(&schema)
    }
}

// ---------------------------------------------------------------------------------------------
// Request params

fn meta_to_sdk(meta: &Option<Map<String, Value>>) -> Option<sdk::RequestMetaObject> {
    meta.clone()
        .map(|m| sdk::RequestMetaObject(sdk::MetaObject(m)))
}

fn meta_from_sdk(meta: &Option<sdk::RequestMetaObject>) -> Option<Map<String, Value>> {
    meta.as_ref().map(|m| m.0.0.clone())
}

pub(crate) fn form_to_sdk(
    params: &ElicitRequestFormParams,
    patterns: Patterns,
) -> Result<sdk::ElicitRequestParams, Unrepresentable> {
    Ok(sdk::ElicitRequestParams::FormElicitationParams {
        meta: meta_to_sdk(&params.meta),
        message: params.message.clone(),
        requested_schema: to_sdk_schema(&params.requested_schema, patterns)?,
    })
}

impl TryFrom<&ElicitRequestFormParams> for sdk::ElicitRequestParams {
    type Error = Unrepresentable;

    fn try_from(params: &ElicitRequestFormParams) -> Result<Self, Unrepresentable> {
        form_to_sdk(params, Patterns::Refuse)
    }
}

impl From<&ElicitRequestUrlParams> for sdk::ElicitRequestParams {
    fn from(params: &ElicitRequestUrlParams) -> Self {
        sdk::ElicitRequestParams::UrlElicitationParams {
            meta: meta_to_sdk(&params.meta().cloned()),
            message: params.message().to_owned(),
            url: params.url().to_owned(),
            elicitation_id: params.elicitation_id().as_str().to_owned(),
        }
    }
}

impl TryFrom<&ElicitRequestParams> for sdk::ElicitRequestParams {
    type Error = Unrepresentable;

    fn try_from(params: &ElicitRequestParams) -> Result<Self, Unrepresentable> {
        match params {
            ElicitRequestParams::Form(form) => sdk::ElicitRequestParams::try_from(form),
            ElicitRequestParams::Url(url) => Ok(url.into()),
        }
    }
}

impl TryFrom<&sdk::ElicitRequestParams> for ElicitRequestParams {
    type Error = InvalidElicitRequest;

    /// The params in elicit's model. A form's schema goes through the same checks as one read
    /// from the wire, so a client can answer a failure with -32602 as it is
    /// ([`InvalidElicitRequest`] converts into rmcp's `ErrorData`).
    fn try_from(params: &sdk::ElicitRequestParams) -> Result<Self, InvalidElicitRequest> {
        match params {
            sdk::ElicitRequestParams::FormElicitationParams {
                meta,
                message,
                requested_schema,
            } => {
                let schema = RequestedSchema::try_from(requested_schema)
                    .map_err(InvalidElicitRequest::InvalidSchema)?;
                let mut form = ElicitRequestFormParams::new(message.clone(), schema);
                form.meta = meta_from_sdk(meta);
                Ok(ElicitRequestParams::Form(form))
            }
            sdk::ElicitRequestParams::UrlElicitationParams {
                meta,
                message,
                url,
                elicitation_id,
            } => {
                let mut wire = json!({
                    "mode": "url",
                    "message": message,
                    "url": url,
                    "elicitationId": elicitation_id,
                });
                if let (Some(meta), Value::Object(wire)) = (meta_from_sdk(meta), &mut wire) {
                    wire.insert("_meta".to_owned(), Value::Object(meta));
                }
                ElicitRequestUrlParams::deserialize(wire)
                    .map(ElicitRequestParams::Url)
                    .map_err(|e| InvalidElicitRequest::Malformed {
                        reason: e.to_string(),
                    })
            }
            _ => Err(InvalidElicitRequest::Malformed {
                reason: "an elicitation mode this crate does not know".to_owned(),
            }),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Result

/// rmcp's `ElicitResult` carries `content` that is not a JSON object, or an action this crate
/// does not know.
///
/// ```
/// use elicit::ElicitResult;
/// use elicit::rmcp::InvalidResult;
///
/// let theirs: rmcp::model::ElicitResult =
///     serde_json::from_value(serde_json::json!({"action": "accept", "content": "yes"})).unwrap();
/// let error: InvalidResult = ElicitResult::try_from(&theirs).unwrap_err();
/// assert_eq!(error.to_string(), "invalid elicitation result: `content` must be an object, found a string");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidResult {
    reason: String,
}

impl InvalidResult {
    pub(crate) fn new(reason: impl Into<String>) -> Self {
        InvalidResult {
            reason: reason.into(),
        }
    }
}

impl fmt::Display for InvalidResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid elicitation result: {}", self.reason)
    }
}

impl std::error::Error for InvalidResult {}

impl From<&ElicitResult> for sdk::ElicitResult {
    fn from(result: &ElicitResult) -> Self {
        let mut converted = sdk::ElicitResult::new(match result.action {
            ElicitAction::Accept => sdk::ElicitationAction::Accept,
            ElicitAction::Decline => sdk::ElicitationAction::Decline,
            ElicitAction::Cancel => sdk::ElicitationAction::Cancel,
        });
        converted.content = result.content.clone().map(Value::Object);
        converted.meta = result.meta.clone().map(sdk::MetaObject);
        converted
    }
}

impl From<ElicitResult> for sdk::ElicitResult {
    fn from(result: ElicitResult) -> Self {
        sdk::ElicitResult::from(&result)
    }
}

impl TryFrom<&sdk::ElicitResult> for ElicitResult {
    type Error = InvalidResult;

    /// The result in elicit's model: `null` content is read as absent, as on the wire.
    fn try_from(result: &sdk::ElicitResult) -> Result<Self, InvalidResult> {
        let action = match result.action {
            sdk::ElicitationAction::Accept => ElicitAction::Accept,
            sdk::ElicitationAction::Decline => ElicitAction::Decline,
            sdk::ElicitationAction::Cancel => ElicitAction::Cancel,
            _ => {
                return Err(InvalidResult::new(
                    "an action other than accept, decline and cancel",
                ));
            }
        };
        let content = match &result.content {
            None | Some(Value::Null) => None,
            Some(Value::Object(content)) => Some(content.clone()),
            Some(other) => {
                return Err(InvalidResult::new(format!(
                    "`content` must be an object, found {}",
                    crate::schema::kind_of(other)
                )));
            }
        };
        Ok(ElicitResult {
            action,
            content,
            meta: result.meta.as_ref().map(|m| m.0.clone()),
        })
    }
}

impl TryFrom<sdk::ElicitResult> for ElicitResult {
    type Error = InvalidResult;

    fn try_from(result: sdk::ElicitResult) -> Result<Self, InvalidResult> {
        ElicitResult::try_from(&result)
    }
}

// ---------------------------------------------------------------------------------------------
// Capability

impl From<&sdk::ElicitationCapability> for ElicitationCapability {
    fn from(capability: &sdk::ElicitationCapability) -> Self {
        ElicitationCapability {
            form: capability.form.as_ref().map(|form| {
                let mut settings = Map::new();
                if let Some(validation) = form.schema_validation {
                    settings.insert("schemaValidation".to_owned(), Value::Bool(validation));
                }
                settings
            }),
            url: capability.url.as_ref().map(|_| Map::new()),
            other: Map::new(),
        }
    }
}

impl From<sdk::ElicitationCapability> for ElicitationCapability {
    fn from(capability: sdk::ElicitationCapability) -> Self {
        ElicitationCapability::from(&capability)
    }
}

impl TryFrom<&ElicitationCapability> for sdk::ElicitationCapability {
    type Error = Unrepresentable;

    /// rmcp's capability has `form.schemaValidation` and nothing else: any other member would
    /// be dropped, so it is refused.
    fn try_from(capability: &ElicitationCapability) -> Result<Self, Unrepresentable> {
        if let Some(key) = capability.other.keys().next() {
            return Err(Unrepresentable::top(format!(
                "rmcp's elicitation capability has no `{key}` member"
            )));
        }
        let mut converted = sdk::ElicitationCapability::new();
        if let Some(settings) = &capability.form {
            let mut form = sdk::FormElicitationCapability::new();
            for (key, value) in settings {
                match (key.as_str(), value) {
                    ("schemaValidation", Value::Bool(validation)) => {
                        form.schema_validation = Some(*validation);
                    }
                    _ => {
                        return Err(Unrepresentable::top(format!(
                            "rmcp's form capability has only a boolean `schemaValidation`, not `{key}`: {value}"
                        )));
                    }
                }
            }
            converted.form = Some(form);
        }
        if let Some(settings) = &capability.url {
            if let Some(key) = settings.keys().next() {
                return Err(Unrepresentable::top(format!(
                    "rmcp's URL capability has no members, not `{key}`"
                )));
            }
            converted.url = Some(sdk::UrlElicitationCapability::new());
        }
        Ok(converted)
    }
}

impl ElicitationCapability {
    /// The `elicitation` capability of a client's rmcp `ClientCapabilities`, `None` if it
    /// declared none.
    pub fn of_rmcp_client(capabilities: &sdk::ClientCapabilities) -> Option<Self> {
        capabilities
            .elicitation
            .as_ref()
            .map(ElicitationCapability::from)
    }
}

// ---------------------------------------------------------------------------------------------
// Errors

impl From<&UrlElicitationRequiredError> for sdk::ErrorData {
    /// The -32042 error, as the spec writes it: `data.elicitations` lists the URL-mode
    /// elicitations to complete. rmcp 3 has no such error of its own; a tool handler returns
    /// this as its `Err` and rmcp sends it unchanged.
    fn from(error: &UrlElicitationRequiredError) -> Self {
        let error = error.to_jsonrpc_error();
        sdk::ErrorData::new(
            sdk::ErrorCode(UrlElicitationRequiredError::CODE as i32),
            error.message,
            error.data,
        )
    }
}

impl From<UrlElicitationRequiredError> for sdk::ErrorData {
    fn from(error: UrlElicitationRequiredError) -> Self {
        sdk::ErrorData::from(&error)
    }
}

impl TryFrom<&sdk::ErrorData> for UrlElicitationRequiredError {
    type Error = NotUrlElicitationRequired;

    /// Reads the -32042 error a client got from `call_tool` (as
    /// `ServiceError::McpError(error)`).
    fn try_from(error: &sdk::ErrorData) -> Result<Self, NotUrlElicitationRequired> {
        UrlElicitationRequiredError::try_from(&JsonRpcError::from(error))
    }
}

impl From<&sdk::ErrorData> for JsonRpcError {
    fn from(error: &sdk::ErrorData) -> Self {
        JsonRpcError {
            code: i64::from(error.code.0),
            message: error.message.to_string(),
            data: error.data.clone(),
        }
    }
}

impl TryFrom<&JsonRpcError> for sdk::ErrorData {
    type Error = Unrepresentable;

    /// rmcp's error code is an `i32`: a wider one is refused.
    fn try_from(error: &JsonRpcError) -> Result<Self, Unrepresentable> {
        let code = i32::try_from(error.code).map_err(|_| {
            Unrepresentable::top(format!(
                "rmcp's error code is an i32; {} is past it",
                error.code
            ))
        })?;
        Ok(sdk::ErrorData::new(
            sdk::ErrorCode(code),
            error.message.clone(),
            error.data.clone(),
        ))
    }
}

impl From<InvalidElicitRequest> for sdk::ErrorData {
    /// The -32602 a client answers a request it refuses with.
    fn from(error: InvalidElicitRequest) -> Self {
        let error = error.to_jsonrpc_error();
        sdk::ErrorData::invalid_params(error.message, error.data)
    }
}

impl From<&ContentError> for sdk::ErrorData {
    /// Invalid params, the message listing every field error and `data` carrying them as
    /// `{"errors": [{"field", "message"}]}`.
    fn from(error: &ContentError) -> Self {
        sdk::ErrorData::invalid_params(error.to_string(), serde_json::to_value(error).ok())
    }
}

// ---------------------------------------------------------------------------------------------
// Completion notification

impl From<&ElicitationCompleteNotification> for sdk::CustomNotification {
    /// `notifications/elicitation/complete`, which rmcp 3 has no type for: sent as a custom
    /// notification, it goes out as the spec writes it,
    /// `{"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": ".."}}`.
    fn from(notification: &ElicitationCompleteNotification) -> Self {
        sdk::CustomNotification::new(
            ElicitationCompleteNotification::METHOD,
            serde_json::to_value(&notification.params).ok(),
        )
    }
}

impl From<&ElicitationCompleteNotification> for sdk::ServerNotification {
    fn from(notification: &ElicitationCompleteNotification) -> Self {
        sdk::ServerNotification::CustomNotification(notification.into())
    }
}

/// A notification that is not a well-formed `notifications/elicitation/complete`.
///
/// rmcp 3 has no type for that notification, so an rmcp client receives it in
/// `ClientHandler::on_custom_notification` and reads it with `TryFrom`:
///
/// ```
/// use elicit::rmcp::NotElicitationComplete;
/// use elicit::{ElicitationCompleteNotification, ElicitationId};
/// use rmcp::model::CustomNotification;
///
/// // What a server sends (`ElicitPeer::notify_elicitation_complete` does this).
/// let sent = ElicitationCompleteNotification::new(ElicitationId::new("550e8400"));
/// let received = CustomNotification::from(&sent);
///
/// // In the client's `on_custom_notification`:
/// let notification = ElicitationCompleteNotification::try_from(&received).unwrap();
/// assert_eq!(notification.elicitation_id().as_str(), "550e8400");
/// // then `UrlElicitationWatch::on_complete(&notification)` says which calls to retry.
///
/// // Any other custom notification is not one.
/// let other = CustomNotification::new("notifications/other", None);
/// let error: NotElicitationComplete = ElicitationCompleteNotification::try_from(&other).unwrap_err();
/// assert_eq!(error.to_string(), r#"method is "notifications/other", not "notifications/elicitation/complete""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotElicitationComplete {
    reason: String,
}

impl fmt::Display for NotElicitationComplete {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for NotElicitationComplete {}

impl TryFrom<&sdk::CustomNotification> for ElicitationCompleteNotification {
    type Error = NotElicitationComplete;

    /// Reads the completion notification an rmcp client receives in
    /// `ClientHandler::on_custom_notification`.
    fn try_from(notification: &sdk::CustomNotification) -> Result<Self, NotElicitationComplete> {
        if notification.method != ElicitationCompleteNotification::METHOD {
            return Err(NotElicitationComplete {
                reason: format!(
                    "method is \"{}\", not \"{}\"",
                    notification.method,
                    ElicitationCompleteNotification::METHOD
                ),
            });
        }
        let params = notification
            .params
            .as_ref()
            .ok_or_else(|| NotElicitationComplete {
                reason: "`params` with `elicitationId` is required".to_owned(),
            })?;
        let params =
            ElicitationCompleteParams::deserialize(params).map_err(|e| NotElicitationComplete {
                reason: format!("invalid `params`: {e}"),
            })?;
        Ok(ElicitationCompleteNotification { params })
    }
}
